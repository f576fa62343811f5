import { defineTexts } from '../../lib/i18n.tsx';

export const teamTexts = defineTexts({
  en: { noun: 'team', name: 'Name', leader: 'Leader', members: 'Members', none: 'none', description: 'Description' },
  zh: { noun: '团队', name: '名称', leader: '负责人', members: '成员', none: '无', description: '描述' },
});
