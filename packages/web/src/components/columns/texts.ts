import { defineTexts } from '../../lib/i18n.tsx';

export const columnTexts = defineTexts({
  en: { columns: 'Columns', chooseColumns: 'Choose the columns to show' },
  zh: { columns: '列', chooseColumns: '选择要显示的列' },
});
