import { defineTexts } from '../../lib/i18n.tsx';

export const gitIdentityTexts = defineTexts({
  en: {
    title: 'Git identities',
    explain:
      'The names and e-mail addresses you commit under, if they differ from your account e-mail ({email}). Methods whose git blame author matches one of them count as yours in my analytics, risks and notifications.',
    explainOther: 'The names and e-mail addresses this user commits under, besides the account e-mail.',
    placeholder: 'Type a name or an e-mail address and press Enter',
    save: 'Save identities',
    saved: 'Identities saved.',
    invalid: 'A name, or a valid e-mail address, without < > characters.',
    tooMany: 'At most {max} identities.',
  },
  zh: {
    title: 'Git 身份',
    explain:
      '若你提交代码时使用的姓名或邮箱与账号邮箱（{email}）不同，请在此列出。git blame 作者与其中之一匹配的方法，会在我的分析、风险和通知中算作你的。',
    explainOther: '该用户提交代码时使用的姓名和邮箱（账号邮箱之外）。',
    placeholder: '输入姓名或邮箱后按回车',
    save: '保存身份',
    saved: '身份已保存。',
    invalid: '请输入姓名或有效的邮箱地址，不能包含 < > 字符。',
    tooMany: '最多 {max} 个身份。',
  },
});
