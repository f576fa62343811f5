/**
 * A small syntax highlighter: keywords, strings, numbers and comments, line by line, carrying an
 * open block comment or multi-line string into the next line. It returns plain text pieces; React
 * escapes them when rendering, so source text can never become markup.
 */
export type TokenKind = 'keyword' | 'string' | 'comment' | 'number' | 'plain';
export type Token = { kind: TokenKind; text: string };

type Grammar = {
  keywords: Set<string>;
  lineComment: string[];
  block: [string, string] | null;
  /** Quote characters; a tripled quote (Python) opens a string that may span lines. */
  quotes: string[];
  triple: boolean;
};

const words = (s: string) => new Set(s.split(' '));
const C_LIKE = 'if else for while do switch case default break continue return new try catch finally throw';
const GRAMMARS: Record<string, Grammar> = {
  java: {
    keywords: words(
      `${C_LIKE} class interface enum extends implements public private protected static final abstract void int long short byte char boolean float double package import this super null true false synchronized throws instanceof var record`,
    ),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: ['"', "'"],
    triple: false,
  },
  javascript: {
    keywords: words(
      `${C_LIKE} const let var function class extends import export from as async await yield typeof instanceof in of delete void this super null undefined true false type interface enum implements readonly private public protected static declare`,
    ),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: ['"', "'", '`'],
    triple: false,
  },
  python: {
    keywords: words(
      'def class if elif else for while return import from as try except finally raise with lambda yield pass break continue and or not in is None True False global nonlocal async await',
    ),
    lineComment: ['#'],
    block: null,
    quotes: ['"', "'"],
    triple: true,
  },
  go: {
    keywords: words(
      `${C_LIKE} func package import type struct interface map chan go defer select range var const fallthrough goto nil true false`,
    ),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: ['"', "'", '`'],
    triple: false,
  },
  c: {
    keywords: words(
      `${C_LIKE} int long short char unsigned signed float double void struct union enum typedef static const extern sizeof include define ifdef ifndef endif class public private protected template typename namespace using virtual nullptr true false auto`,
    ),
    lineComment: ['//'],
    block: ['/*', '*/'],
    quotes: ['"', "'"],
    triple: false,
  },
};
GRAMMARS.kotlin = {
  ...GRAMMARS.java,
  keywords: words(
    `${C_LIKE} fun val var class object interface package import when is as in null true false this super`,
  ),
} as Grammar;
GRAMMARS.typescript = GRAMMARS.javascript as Grammar;
GRAMMARS.cpp = GRAMMARS.c as Grammar;

const EXTENSIONS: Record<string, string> = {
  java: 'java',
  kt: 'kotlin',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  go: 'go',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
};

export function grammarFor(language: string | null, path: string): Grammar | null {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return GRAMMARS[language ?? ''] ?? GRAMMARS[EXTENSIONS[ext] ?? ''] ?? null;
}

const isWordStart = (c: string) => /[A-Za-z_$]/.test(c);
const isWord = (c: string) => /[\w$]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/** What is still open at the end of a line: a block comment, or a multi-line string with its closer. */
type Open = { kind: 'comment' | 'string'; close: string } | null;

function tokenizeLine(line: string, g: Grammar, open: Open): { tokens: Token[]; open: Open } {
  const tokens: Token[] = [];
  let plain = '';
  const flush = () => {
    if (plain) tokens.push({ kind: 'plain', text: plain });
    plain = '';
  };
  let i = 0;
  if (open) {
    const end = line.indexOf(open.close);
    if (end < 0) return { tokens: [{ kind: open.kind, text: line }], open };
    tokens.push({ kind: open.kind, text: line.slice(0, end + open.close.length) });
    i = end + open.close.length;
  }
  while (i < line.length) {
    const c = line[i] as string;
    if (g.lineComment.some((m) => line.startsWith(m, i))) {
      flush();
      tokens.push({ kind: 'comment', text: line.slice(i) });
      return { tokens, open: null };
    }
    if (g.block && line.startsWith(g.block[0], i)) {
      flush();
      const end = line.indexOf(g.block[1], i + g.block[0].length);
      if (end < 0) {
        tokens.push({ kind: 'comment', text: line.slice(i) });
        return { tokens, open: { kind: 'comment', close: g.block[1] } };
      }
      tokens.push({ kind: 'comment', text: line.slice(i, end + g.block[1].length) });
      i = end + g.block[1].length;
      continue;
    }
    if (g.quotes.includes(c)) {
      flush();
      const tripled = g.triple && line.startsWith(c.repeat(3), i);
      const close = tripled ? c.repeat(3) : c;
      let j = i + close.length;
      while (j < line.length && !line.startsWith(close, j)) j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length && (tripled || c === '`')) {
        tokens.push({ kind: 'string', text: line.slice(i) });
        return { tokens, open: { kind: 'string', close } };
      }
      j = Math.min(line.length, j + close.length);
      tokens.push({ kind: 'string', text: line.slice(i, j) });
      i = j;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < line.length && isWord(line[j] as string)) j++;
      const word = line.slice(i, j);
      if (g.keywords.has(word)) {
        flush();
        tokens.push({ kind: 'keyword', text: word });
      } else plain += word;
      i = j;
      continue;
    }
    if (isDigit(c) && !isWord(line[i - 1] ?? ' ')) {
      let j = i + 1;
      while (j < line.length && /[\w.]/.test(line[j] as string)) j++;
      flush();
      tokens.push({ kind: 'number', text: line.slice(i, j) });
      i = j;
      continue;
    }
    plain += c;
    i++;
  }
  flush();
  return { tokens, open: null };
}

/** Tokens for every line of a file; unknown languages come back as one plain piece per line. */
export function tokenize(lines: readonly string[], grammar: Grammar | null): Token[][] {
  if (!grammar) return lines.map((text) => [{ kind: 'plain', text }]);
  const out: Token[][] = [];
  let open: Open = null;
  for (const line of lines) {
    const result = tokenizeLine(line, grammar, open);
    out.push(result.tokens);
    open = result.open;
  }
  return out;
}
