import { defineTexts } from '../../lib/i18n.tsx';

export const branchTexts = defineTexts({
  en: {
    noun: 'branch',
    refreshed: '{total} branches: {added} new, {moved} moved, {gone} gone.',
    app: 'App',
    allApps: 'All apps',
    refresh: 'Refresh from repository',
    branch: 'Branch',
    head: 'Head',
    inRepository: 'In repository',
    yes: 'yes',
    gone: 'gone',
    tracked: 'Tracked',
    track: 'Track {name}',
    refreshedAt: 'Refreshed',
  },
  zh: {
    noun: '分支',
    refreshed: '共 {total} 个分支：新增 {added} 个，移动 {moved} 个，消失 {gone} 个。',
    app: '应用',
    allApps: '全部应用',
    refresh: '从仓库刷新',
    branch: '分支',
    head: '最新提交',
    inRepository: '仓库中存在',
    yes: '是',
    gone: '已消失',
    tracked: '跟踪',
    track: '跟踪 {name}',
    refreshedAt: '刷新时间',
  },
});
