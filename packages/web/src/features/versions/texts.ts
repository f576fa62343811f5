import { defineTexts } from '../../lib/i18n.tsx';

export const versionTexts = defineTexts({
  en: {
    noun: 'version',
    emptyHint: 'A version names the two git refs a report compares (base and new); add one per app and release.',
    name: 'Name',
    project: 'Project',
    app: 'App',
    refs: 'Base → new',
    release: 'Release',
    status: 'Status',
    newRef: 'New version ref',
    newRefHelp: 'branch, tag or commit',
    baseRef: 'Base version ref',
    plannedRelease: 'Planned release',
    statuses: { planned: 'planned', testing: 'testing', released: 'released', archived: 'archived' },
  },
  zh: {
    noun: '版本',
    emptyHint: '版本指定报告对比的两个 git 引用（基线和新版本）；为每个应用和发布添加一个。',
    name: '名称',
    project: '项目',
    app: '应用',
    refs: '基线 → 新版本',
    release: '发布',
    status: '状态',
    newRef: '新版本引用',
    newRefHelp: '分支、标签或提交',
    baseRef: '基线版本引用',
    plannedRelease: '计划发布日期',
    statuses: { planned: '计划中', testing: '测试中', released: '已发布', archived: '已归档' },
  },
});
