import { useCallback } from 'react';
import { fieldErrors } from './api-client.ts';
import { useLocale } from './i18n.tsx';

/**
 * The server words its per-field validation messages in English (the zod schemas of @sextant/api,
 * shared with the forms). In Chinese, the known sentences are shown translated; an unknown one as sent.
 */
const ZH: Record<string, string> = {
  'A folder of the repository, relative to its top: "packages/web" (no leading "/", no "." or ".." part, no backslash).':
    '仓库中的目录，相对于仓库根目录：如“packages/web”（不能以“/”开头，不能含“.”或“..”段，不能含反斜杠）。',
  'A JVM class name such as demo/Shop$Item (letters, digits, _ $ . - and / between parts).':
    'JVM 类名，如 demo/Shop$Item（字母、数字、_ $ . -，各段之间用 / 分隔）。',
  'Send at least one class file.': '请至少发送一个类文件。',
  'At most 200,000 class files.': '最多 200,000 个类文件。',
  'A sha256 in 64 lower-case hex digits.': '须为 64 位小写十六进制的 sha256 值。',
  'A tag cannot contain ";" or ",".': '标签不能包含“;”或“,”。',
  'A username cannot hold invisible or control characters.': '用户名不能包含不可见字符或控制字符。',
  'At most 20 tags.': '最多 20 个标签。',
  'At most 32 characters per tag.': '每个标签最多 32 个字符。',
  'Control characters are not allowed.': '不允许使用控制字符。',
  'Each environment once.': '每个环境只能出现一次。',
  'Empty tag.': '标签不能为空。',
  'Letters, digits, ".", ":", "-" and "_" only.': '只能包含字母、数字、“.”、“:”、“-”和“_”。',
  'Letters, digits, spaces, dots, dashes and underscores only.': '只能包含字母、数字、空格、点、短横线和下划线。',
  'Lower-case letters, digits, "-" and "_", at most 32.': '只能包含小写字母、数字、“-”和“_”，最多 32 个字符。',
  'Not a valid git ref (no spaces, "..", ~ ^ : ? * [ \\, nor a leading "-").':
    '不是有效的 git 引用（不能含空格、“..”、~ ^ : ? * [ \\，也不能以“-”开头）。',
  'Not valid Unicode (a lone surrogate).': '不是有效的 Unicode（含有孤立的代理字符）。',
  'Please choose a project.': '请选择项目。',
  'Please choose a role.': '请选择角色。',
  'Please choose a team.': '请选择团队。',
  'Say why.': '请说明原因。',
  'The NUL character is not allowed.': '不允许使用 NUL 字符。',
  'Please choose an app.': '请选择应用。',
  'Please enter a git ref.': '请输入 git 引用。',
  'Please enter a key.': '请输入编号。',
  'Please enter a name.': '请输入名称。',
  'Please enter a valid email.': '请输入有效的邮箱地址。',
  'Please enter a value.': '请输入内容。',
  'Please enter the repository URL.': '请输入仓库地址。',
  'Please enter your current password.': '请输入当前密码。',
  'Please enter your email.': '请输入邮箱。',
  'Please enter your password.': '请输入密码。',
  'Please enter your username.': '请输入用户名。',
  'Please give a reason.': '请填写原因。',
  'The base ref must differ from the new ref.': '基线引用必须与新引用不同。',
  'The end date is before the start date.': '结束日期早于开始日期。',
  'Use a key like REQ-123 or a numeric story id.': '请使用 REQ-123 这样的编号或数字需求号。',
  'Use an https:// or ssh:// URL, user@host:path, or an absolute path on the server.':
    '请使用 https:// 或 ssh:// 地址、user@host:path，或服务器上的绝对路径。',
  'Use the form YYYY-MM-DD.': '请使用 YYYY-MM-DD 格式。',
  'An identity may not be empty.': '身份不能为空。',
  'An identity is listed twice.': '同一身份列出了两次。',
  'Not a valid e-mail address.': '不是有效的邮箱地址。',
  'Without < > or line breaks: a name, or an e-mail address.': '不能包含 < > 或换行：请填写姓名或邮箱地址。',
  'Use an http(s) address without user, password, query or fragment, e.g. https://zentao.example.com/.':
    '请使用不含用户名、密码、查询参数或片段的 http(s) 地址，如 https://zentao.example.com/。',
};
const ZH_PATTERNS: [RegExp, (n: string) => string][] = [
  [/^At most (\d+) characters\.$/, (n) => `最多 ${n} 个字符。`],
  [/^At least (\d+) characters\.$/, (n) => `至少 ${n} 个字符。`],
  [/^At most (\d+) identities\.$/, (n) => `最多 ${n} 个身份。`],
];

export function translateFieldMessage(message: string, locale: string): string {
  if (locale !== 'zh') return message;
  const exact = ZH[message];
  if (exact) return exact;
  for (const [pattern, wording] of ZH_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return wording(match[1] as string);
  }
  return message;
}

/** The server's per-field messages of a failed call, in the reader's language where known. */
export function useFieldErrors(): (error: unknown) => Record<string, string> {
  const { locale } = useLocale();
  return useCallback(
    (error: unknown) =>
      Object.fromEntries(
        Object.entries(fieldErrors(error)).map(([field, message]) => [field, translateFieldMessage(message, locale)]),
      ),
    [locale],
  );
}
