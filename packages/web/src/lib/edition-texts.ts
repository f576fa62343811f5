import type { Edition } from '@sextant/api';
import { defineTexts, useTexts } from './i18n.tsx';

/** Licence editions by name (English as in EDITION_LABELS). */
export const editionTexts = defineTexts({
  en: { advanced: 'Efficiency Excellent', basic: 'Basic Quality', lite: 'Lite' },
  zh: { advanced: '效能卓越版', basic: '基础质量版', lite: '精简版' },
});

export function useEditionLabels(): Record<Edition, string> {
  return useTexts(editionTexts);
}
