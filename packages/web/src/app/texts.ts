import { defineTexts } from '../lib/i18n.tsx';

export const appTexts = defineTexts({
  en: {
    failed: 'The screen failed to load.',
    timedOut: 'The screen did not load within 120 seconds.',
    checkConnection: 'Check your connection; the rest of Sextant keeps working.',
    retry: 'Retry',
    reload: 'Reload page',
  },
  zh: {
    failed: '页面加载失败。',
    timedOut: '页面在 120 秒内未能加载。',
    checkConnection: '请检查网络连接；Sextant 的其他部分仍可正常使用。',
    retry: '重试',
    reload: '刷新页面',
  },
});
