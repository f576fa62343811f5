import { ConfigProvider, type ConfigProviderProps } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

/**
 * English and Simplified Chinese (issue 7). Each feature keeps its texts beside it in a `texts.ts`
 * made with `defineTexts`, so a screen's strings travel in its own lazy chunk; the type of `zh` is
 * the shape of `en`, so a key missing in either language fails the type check (and texts.test.ts).
 */
export const LOCALES = ['en', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_LABELS: Record<Locale, string> = { en: 'English', zh: '简体中文' };
const LOCALE_KEY = 'sextant.locale';

type Tree = { readonly [key: string]: string | Tree };
/** The same keys as T, any strings. */
export type SameKeys<T> = { readonly [K in keyof T]: T[K] extends string ? string : SameKeys<T[K]> };
export type Texts<T extends Tree> = { readonly en: T; readonly zh: SameKeys<T> };

export function defineTexts<const T extends Tree>(texts: { en: T; zh: SameKeys<T> }): Texts<T> {
  return texts;
}

/** `{name}` placeholders filled from `values`; a missing value leaves the placeholder visible. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

function initialLocale(): Locale {
  const stored = localStorage.getItem(LOCALE_KEY);
  if (stored === 'en' || stored === 'zh') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

type AntdLocale = NonNullable<ConfigProviderProps['locale']>;
let chineseData: Promise<AntdLocale> | null = null;
let wantedLocale: Locale = 'en';

/**
 * Chinese data for antd's own texts and for dayjs loads on first use; English is both libraries'
 * default and needs nothing. Until it is there (or if it fails) antd's built-in texts stay English.
 */
async function applyLibraryLocale(locale: Locale): Promise<AntdLocale | undefined> {
  wantedLocale = locale;
  if (locale === 'en' && !chineseData) return undefined;
  if (locale === 'zh') {
    // Not 'antd/es/locale/zh_CN': with it Rolldown 1.2.19 left antd's `Empty` unrenamed in another chunk.
    chineseData ??= Promise.all([import('antd/locale/zh_CN'), import('dayjs/locale/zh-cn')]).then(
      ([antd]) => antd.default,
    );
  }
  const [antd, dayjs] = await Promise.all([locale === 'zh' ? chineseData : undefined, import('dayjs')]);
  // A quicker switch made after this one has the last word.
  if (wantedLocale === locale) dayjs.default.locale(locale === 'zh' ? 'zh-cn' : 'en');
  return antd ?? undefined;
}

type LocaleValue = {
  locale: Locale;
  setLocale(locale: Locale): void;
  formatDate(value: string | number | Date, withTime?: boolean): string;
  formatNumber(value: number): string;
  formatPercent(fraction: number | null, digits?: number): string;
};
const LocaleContext = createContext<LocaleValue | null>(null);

export function LocaleProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const setLocale = useCallback((next: Locale) => {
    localStorage.setItem(LOCALE_KEY, next);
    setLocaleState(next);
  }, []);
  const [antdLocale, setAntdLocale] = useState<AntdLocale | undefined>(undefined);
  useEffect(() => {
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
    let live = true;
    applyLibraryLocale(locale).then(
      (loaded) => live && setAntdLocale(loaded),
      () => live && setAntdLocale(undefined),
    );
    return () => {
      live = false;
    };
  }, [locale]);
  const value = useMemo<LocaleValue>(() => {
    const tag = locale === 'zh' ? 'zh-CN' : 'en-GB';
    const date = new Intl.DateTimeFormat(tag, { dateStyle: 'medium' });
    const dateTime = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' });
    const number = new Intl.NumberFormat(tag);
    return {
      locale,
      setLocale,
      formatDate: (v, withTime = true) => (withTime ? dateTime : date).format(new Date(v)),
      formatNumber: (v) => number.format(v),
      formatPercent: (f, digits = 1) =>
        f === null
          ? '—'
          : new Intl.NumberFormat(tag, {
              style: 'percent',
              minimumFractionDigits: digits,
              maximumFractionDigits: digits,
            }).format(f),
    };
  }, [locale, setLocale]);
  return (
    <LocaleContext.Provider value={value}>
      <ConfigProvider locale={antdLocale}>{children}</ConfigProvider>
    </LocaleContext.Provider>
  );
}

export function useLocale(): LocaleValue {
  const value = useContext(LocaleContext);
  if (!value) throw new Error('useLocale outside LocaleProvider');
  return value;
}

/** The texts of the current language. */
export function useTexts<T extends Tree>(texts: Texts<T>): T {
  return texts[useLocale().locale] as T;
}
