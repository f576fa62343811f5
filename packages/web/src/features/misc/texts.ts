import { defineTexts } from '../../lib/i18n.tsx';

export const miscTexts = defineTexts({
  en: {
    yourAccess: 'Your access',
    yourAccessDetail:
      'Your account is signed in with the permissions below. Dashboards appear in the menu once an administrator gives your role access to them.',
    role: 'Role',
    abilities: 'Abilities',
    needMore: 'Need more?',
    askBefore: 'Ask an administrator, or send a request from the',
    requestForm: 'access request form',
    askAfter: 'when signed out.',
    notAuthorized: 'You are not authorized',
    notAuthorizedDetail:
      'Your role does not include this screen, or your licence edition does not offer it. Ask an administrator if you need it.',
    backHome: 'Back home',
    notFound: 'Page not found',
    notFoundDetail: 'The address does not match any Sextant screen.',
    nothingYet: 'Nothing here yet.',
    beingBuilt: 'This screen is being built.',
  },
  zh: {
    yourAccess: '你的权限',
    yourAccessDetail: '你的账号已登录，拥有以下权限。管理员为你的角色授权后，看板会出现在菜单中。',
    role: '角色',
    abilities: '权限',
    needMore: '需要更多权限？',
    askBefore: '请联系管理员，或在退出登录后通过',
    requestForm: '访问申请表',
    askAfter: '提交申请。',
    notAuthorized: '你没有访问权限',
    notAuthorizedDetail: '你的角色不包含此页面，或当前许可证版本不提供此功能。如有需要，请联系管理员。',
    backHome: '返回首页',
    notFound: '页面不存在',
    notFoundDetail: '该地址不对应任何 Sextant 页面。',
    nothingYet: '暂无内容。',
    beingBuilt: '此页面正在建设中。',
  },
});
