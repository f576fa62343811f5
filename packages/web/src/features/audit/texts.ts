import { defineTexts } from '../../lib/i18n.tsx';

export const auditTexts = defineTexts({
  en: {
    title: 'Audit log',
    entity: 'Entity',
    anyEntity: 'Any entity',
    user: 'User',
    anyone: 'Anyone',
    none: 'Nothing recorded yet: changes to teams, apps, projects and the rest appear here.',
    when: 'When',
    who: 'Who',
    what: 'What',
    changes: 'Changes',
  },
  zh: {
    title: '审计日志',
    entity: '对象',
    anyEntity: '全部对象',
    user: '用户',
    anyone: '所有人',
    none: '暂无记录：团队、应用、项目等的修改会显示在这里。',
    when: '时间',
    who: '操作人',
    what: '操作',
    changes: '变更',
  },
});
