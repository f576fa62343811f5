import { defineTexts } from '../../lib/i18n.tsx';

export const requirementTexts = defineTexts({
  en: {
    noun: 'requirement',
    emptyHint:
      'Requirements are matched to commits by their key in commit messages (e.g. REQ-123): add the keys your team uses.',
    key: 'Key',
    keyHelp: 'e.g. REQ-123 or a ZenTao story id; commits naming it belong to it',
    title: 'Title',
    project: 'Project',
    version: 'Version',
    owner: 'Owner',
    status: 'Status',
    statuses: { open: 'open', 'in-progress': 'in-progress', done: 'done', closed: 'closed' },
  },
  zh: {
    noun: '需求',
    emptyHint: '需求通过提交信息中的编号（如 REQ-123）与提交关联：添加团队使用的需求编号。',
    key: '编号',
    keyHelp: '如 REQ-123 或禅道需求 ID；提交信息中写有该编号的提交归属于它',
    title: '标题',
    project: '项目',
    version: '版本',
    owner: '负责人',
    status: '状态',
    statuses: { open: '待处理', 'in-progress': '进行中', done: '已完成', closed: '已关闭' },
  },
});
