#!/usr/bin/env node
// Issue 7: no user-facing string in a component outside the translation files (texts.ts, *-texts.ts).
// Fails on JSX text with letters and on string literals with letters given to user-facing props
// (as JSX attributes, or as properties of object literals such as table columns and form rules),
// and on literal toasts (message.success('…')). Text inside <code> or <Typography.Text code> is a
// command, not prose, and stays as written.
// Usage: node scripts/check-i18n.mjs [srcDir]   (exit 1 and one line per hit with file:line)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const repo = resolve(new URL('..', import.meta.url).pathname);

/** User-facing props: a letter in a literal given to one of these is a text to translate. */
export const TEXT_PROPS = new Set([
  'title',
  'label',
  'placeholder',
  'message',
  'description',
  'okText',
  'cancelText',
  'tooltip',
  'extra',
  'aria-label',
  'alt',
  'emptyText',
  'content',
  'addonBefore',
  'addonAfter',
  'children',
  'subTitle',
  'help',
]);

/** Brand names and symbols that read the same in every language. */
export const ALLOWED_TEXTS = new Set(['Sextant', 'EN', '中', 'OpenTelemetry', 'OTLP', 'JaCoCo', 'ZenTao']);

/**
 * Temporary: features other helpers are still writing; the lead translates them afterwards.
 * Paths relative to the repository root.
 */
export const EXCLUDED = [];

const LETTER = /\p{L}/u;
const TOAST_OWNERS = new Set(['message', 'notification']);

// An example address (a placeholder such as https://zentao.example.com) reads the same in every language.
const URL_LIKE = /^[a-z][a-z+.-]*:\/\/\S+$/i;

function hasLetters(text) {
  const trimmed = text.trim();
  return LETTER.test(trimmed) && !ALLOWED_TEXTS.has(trimmed) && !URL_LIKE.test(trimmed);
}

function propName(name) {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName?.(name)) return `${name.namespace.text}:${name.name.text}`;
  return undefined;
}

/** Literal texts an expression can evaluate to (through ?:, ||, ??, +, parentheses and templates). */
function literalTexts(node) {
  if (!node) return [];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node];
  if (ts.isTemplateExpression(node)) return [node];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return literalTexts(node.expression);
  if (ts.isJsxExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    // `cond && 'text'` shows only its right side.
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalTexts(node.right);
    if (
      op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.QuestionQuestionToken ||
      op === ts.SyntaxKind.PlusToken
    )
      return [...literalTexts(node.left), ...literalTexts(node.right)];
  }
  return [];
}

function literalText(node) {
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return node.text;
}

function tagName(element) {
  const opening = ts.isJsxElement(element) ? element.openingElement : element;
  return opening.tagName.getText();
}

/** JSX text inside <code>, or an element with a `code` attribute, is a command rather than prose. */
function insideCode(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isJsxElement(p)) {
      if (tagName(p) === 'code') return true;
      if (p.openingElement.attributes.properties.some((a) => ts.isJsxAttribute(a) && propName(a.name) === 'code'))
        return true;
    }
  }
  return false;
}

/** Hits in one .tsx source: `{ line, text }` for each hard-coded user-facing text. */
export function findHardCodedTexts(source, fileName = 'file.tsx') {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const hits = [];
  const hit = (node, text) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    hits.push({ line: line + 1, text: text.trim().replace(/\s+/g, ' ').slice(0, 80) });
  };
  const literalHits = (expression) => {
    for (const literal of literalTexts(expression)) {
      const text = literalText(literal);
      if (hasLetters(text)) hit(literal, text);
    }
  };
  const visit = (node) => {
    if (ts.isJsxText(node) && hasLetters(node.text) && !insideCode(node)) hit(node, node.text);
    else if (ts.isJsxExpression(node) && node.expression && ts.isJsxElement(node.parent) && !insideCode(node)) {
      // {'text'} or {cond ? 'a' : 'b'} as a child.
      literalHits(node.expression);
    } else if (ts.isJsxAttribute(node) && TEXT_PROPS.has(propName(node.name) ?? '')) literalHits(node.initializer);
    else if (ts.isPropertyAssignment(node) && TEXT_PROPS.has(propName(node.name) ?? '')) literalHits(node.initializer);
    else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      TOAST_OWNERS.has(node.expression.expression.text)
    )
      literalHits(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return hits;
}

function* componentFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* componentFiles(path);
    else if (entry.name.endsWith('.tsx') && !/(^|-)texts\.tsx$/.test(entry.name)) yield path;
  }
}

/** Every hit under `srcDir`, except the temporarily excluded features. */
export function checkTree(srcDir) {
  const excluded = EXCLUDED.map((p) => resolve(repo, p));
  const hits = [];
  for (const path of componentFiles(srcDir)) {
    if (excluded.some((dir) => path === dir || path.startsWith(`${dir}/`))) continue;
    for (const h of findHardCodedTexts(readFileSync(path, 'utf8'), path)) hits.push({ file: path, ...h });
  }
  return hits;
}

/** The rule must still fail its bad fixture and pass its good one (as scripts/check-lint-fixtures.mjs does). */
function fixturesStillWork() {
  const fixtures = join(repo, 'scripts/fixtures/i18n');
  return checkTree(join(fixtures, 'hard-coded')).length === 11 && checkTree(join(fixtures, 'translated')).length === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === undefined && !fixturesStillWork()) {
    console.log('i18n: the check no longer reports exactly the 11 texts of scripts/fixtures/i18n/hard-coded');
    process.exit(1);
  }
  const srcDir = resolve(process.argv[2] ?? join(repo, 'packages/web/src'));
  const hits = checkTree(srcDir);
  for (const h of hits) console.log(`${relative(process.cwd(), h.file)}:${h.line}: hard-coded text "${h.text}"`);
  if (hits.length > 0) {
    console.log(`i18n: ${hits.length} hard-coded text(s); move them to the feature's texts.ts (en and zh)`);
    process.exit(1);
  }
  const excluded = EXCLUDED.length > 0 ? ` (still excluded for now: ${EXCLUDED.join(', ')})` : '';
  console.log(`i18n: no hard-coded texts${excluded}`);
}
