import { defineTexts } from '../../lib/i18n.tsx';

export const projectTexts = defineTexts({
  en: {
    noun: 'project',
    name: 'Name',
    team: 'Team',
    owner: 'Owner',
    apps: 'Apps',
    start: 'Start',
    end: 'End',
    status: 'Status',
    statuses: { planned: 'planned', active: 'active', done: 'done', archived: 'archived' },
  },
  zh: {
    noun: '项目',
    name: '名称',
    team: '团队',
    owner: '负责人',
    apps: '应用',
    start: '开始',
    end: '结束',
    status: '状态',
    statuses: { planned: '计划中', active: '进行中', done: '已完成', archived: '已归档' },
  },
});
