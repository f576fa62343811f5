import { defineTexts } from '../../lib/i18n.tsx';

export const teamTexts = defineTexts({
  en: {
    noun: 'team',
    name: 'Name',
    leader: 'Leader',
    members: 'Members',
    none: 'none',
    description: 'Description',
    emptyHint: 'Teams own apps and see their coverage together; create one and add its members.',
  },
  zh: {
    noun: '团队',
    name: '名称',
    leader: '负责人',
    members: '成员',
    none: '无',
    description: '描述',
    emptyHint: '团队拥有应用并共同查看其覆盖率；创建团队并添加成员。',
  },
});
