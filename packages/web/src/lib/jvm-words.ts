import { type JvmNameWords, jvmClassDisplayName, jvmDialectOfPath, jvmMethodDisplayName } from '@sextant/api';
import { useMemo } from 'react';
import { defineTexts, fill, useTexts } from './i18n.tsx';

const jvmTexts = defineTexts({
  en: { staticInitializer: 'static initializer', lambdaIn: 'lambda in {method}', anonymous: 'anonymous #{index}' },
  zh: { staticInitializer: '静态初始化块', lambdaIn: '{method} 中的 lambda', anonymous: '匿名类 #{index}' },
});

/** The words of Java and Kotlin source names (issue 37) in the reader's language. */
export function useJvmWords(): JvmNameWords {
  const t = useTexts(jvmTexts);
  return useMemo(
    () => ({
      staticInitializer: t.staticInitializer,
      lambdaIn: (method) => fill(t.lambdaIn, { method }),
      anonymous: (index) => fill(t.anonymous, { index }),
    }),
    [t],
  );
}

/**
 * A method as a person reads it: `Stock.take(String, int)` for a JVM class and descriptor, else the
 * class and method as the report names them. The JVM name stays for tooltips and search.
 */
export function methodLabel(
  m: { className: string | null; method: string; filePath: string },
  words: JvmNameWords,
): string {
  const dialect = jvmDialectOfPath(m.filePath);
  const source = dialect ? jvmMethodDisplayName(m.method, { className: m.className, dialect, words }) : null;
  if (!source) return m.className ? `${m.className}.${m.method}` : m.method;
  // A constructor's source name is its class's already.
  if (!m.className || m.method.startsWith('<init>')) return source;
  return `${jvmClassDisplayName(m.className, words).simple}.${source}`;
}
