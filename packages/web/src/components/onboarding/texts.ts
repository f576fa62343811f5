import { defineTexts } from '../../lib/i18n.tsx';

export const onboardingTexts = defineTexts({
  en: {
    title: 'How to send coverage for {app}',
    intro:
      'Use the app’s ingestion token (shown once when the app was created, or rotate it under System → Apps) in place of $SEXTANT_TOKEN.',
    ci: 'From CI, after the tests ran (unit tests: test type 1)',
    agent: 'Beside the app in a test environment (functional tests: test type 2)',
    otlp: 'Traces: point the app’s OpenTelemetry exporter at Sextant',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Copy failed: select the text and copy it by hand.',
  },
  zh: {
    title: '如何为 {app} 上报覆盖率',
    intro: '将 $SEXTANT_TOKEN 替换为该应用的接入令牌（创建应用时显示一次，也可在 系统 → 应用 中重新生成）。',
    ci: '在 CI 中测试结束后上报（单元测试：测试类型 1）',
    agent: '在测试环境中随应用运行代理（功能测试：测试类型 2）',
    otlp: '链路：将应用的 OpenTelemetry 导出器指向 Sextant',
    copy: '复制',
    copied: '已复制。',
    copyFailed: '复制失败：请手动选择文本复制。',
  },
});
