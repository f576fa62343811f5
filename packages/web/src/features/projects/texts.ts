import { defineTexts } from '../../lib/i18n.tsx';

export const projectTexts = defineTexts({
  en: {
    noun: 'project',
    emptyHint: "A project groups a team's apps for a release; create one, then add versions to compare.",
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
    emptyHint: '项目把团队的应用按发布归组；先创建项目，再添加要对比的版本。',
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
