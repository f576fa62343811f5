import type { ErrorCode } from '@sextant/api';
import { useCallback } from 'react';
import { ApiError, errorMessage } from './api-client.ts';
import { defineTexts, useLocale } from './i18n.tsx';

/**
 * A sentence per error code of the API (ERROR_CODES), for languages other than the server's. English
 * keeps the server's own, more specific message; field messages under a form stay as the server sent them.
 */
export const errorTexts = defineTexts({
  en: {
    'bad-request': 'The request was not understood.',
    'validation-failed': 'Some fields need attention.',
    unauthorized: 'Your session has ended. Please sign in again.',
    'token-expired': 'Your session has expired. Please sign in again.',
    'invalid-credentials': 'Wrong username or password.',
    'account-locked': 'Too many failed sign-ins; wait a moment and try again.',
    'account-disabled': 'This account is disabled. Ask an administrator.',
    'invalid-refresh-token': 'Your session has ended. Please sign in again.',
    forbidden: 'You are not allowed to do this.',
    'edition-forbidden': 'Your licence edition does not offer this.',
    'not-found': 'It no longer exists.',
    conflict: 'This clashes with existing data.',
    'payload-too-large': 'The upload is too large.',
    'rate-limited': 'Too many requests. Try again in a moment.',
    internal: 'Something went wrong on the server.',
    unreachable: 'Sextant could not be reached. Try again in a moment.',
  },
  zh: {
    'bad-request': '无法识别该请求。',
    'validation-failed': '部分字段需要修改。',
    unauthorized: '会话已结束，请重新登录。',
    'token-expired': '会话已过期，请重新登录。',
    'invalid-credentials': '用户名或密码错误。',
    'account-locked': '登录失败次数过多，请稍候再试。',
    'account-disabled': '该账号已停用，请联系管理员。',
    'invalid-refresh-token': '会话已结束，请重新登录。',
    forbidden: '你没有执行此操作的权限。',
    'edition-forbidden': '当前许可证版本不提供此功能。',
    'not-found': '该内容已不存在。',
    conflict: '与现有数据冲突。',
    'payload-too-large': '上传内容过大。',
    'rate-limited': '请求过于频繁，请稍后再试。',
    internal: '服务器出错了。',
    unreachable: '无法连接 Sextant，请稍后再试。',
  },
});

type ErrorKey = keyof typeof errorTexts.en;

/** The error code of a failed call: the envelope's `data.error`, else one read from the HTTP status. */
export function errorCodeOf(error: unknown): ErrorKey {
  if (!(error instanceof ApiError)) return 'unreachable';
  const code = (error.data as { error?: string } | null)?.error;
  if (code && code in errorTexts.en) return code as ErrorCode;
  if (error.code === 401) return 'unauthorized';
  if (error.code === 403) return 'forbidden';
  if (error.code === 404) return 'not-found';
  if (error.code === 409) return 'conflict';
  if (error.code === 413) return 'payload-too-large';
  if (error.code === 429) return 'rate-limited';
  return error.code >= 500 ? 'internal' : 'bad-request';
}

/** The sentence for a failed call in the current language (`errorMessage` in English). */
export function useErrorMessage(): (error: unknown) => string {
  const { locale } = useLocale();
  return useCallback(
    (error: unknown) => (locale === 'en' ? errorMessage(error) : errorTexts[locale][errorCodeOf(error)]),
    [locale],
  );
}
