import type { Counter, CounterKind } from '../../src/index.ts';

/**
 * The counters JaCoCo wrote into its own XML report, read independently of the library with a
 * tag scan (the report is machine-written: one element per tag, attributes in double quotes).
 * Keys: `report`, `package:demo/text`, `class:demo/text/WordCounter`,
 * `method:demo/text/WordCounter#count(Ljava/lang/String;)I@8`, `sourcefile:demo/text/WordCounter.java`.
 */
export type JacocoElement = { key: string; counters: Partial<Record<CounterKind, Counter>> };

export type JacocoXmlFigures = {
  elements: Map<string, JacocoElement>;
  /** `sourcefile:…` key → `<line>` rows as written. */
  lines: Map<string, { nr: number; mi: number; ci: number; mb: number; cb: number }[]>;
};

const TAG = /<(\/?)([a-z]+)((?:\s+[a-z]+="[^"]*")*)\s*(\/?)>/g;
const ATTRIBUTE = /([a-z]+)="([^"]*)"/g;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function attributesOf(raw: string): Map<string, string> {
  const decode = (value: string) => value.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name]!);
  return new Map([...raw.matchAll(ATTRIBUTE)].map((m) => [m[1]!, decode(m[2]!)]));
}

export function readJacocoXml(xml: string): JacocoXmlFigures {
  const elements = new Map<string, JacocoElement>();
  const lines: JacocoXmlFigures['lines'] = new Map();
  const stack: JacocoElement[] = [];
  let pkg = '';
  let cls = '';
  for (const match of xml.matchAll(TAG)) {
    const [, closing, name, rawAttributes, selfClosing] = match;
    if (closing) {
      if (['report', 'package', 'class', 'method', 'sourcefile'].includes(name!)) stack.pop();
      continue;
    }
    const attributes = attributesOf(rawAttributes!);
    let key: string | null = null;
    if (name === 'report') key = 'report';
    else if (name === 'package') {
      pkg = attributes.get('name')!;
      key = `package:${pkg}`;
    } else if (name === 'class') {
      cls = attributes.get('name')!;
      key = `class:${cls}`;
    } else if (name === 'method') {
      key = `method:${cls}#${attributes.get('name')}${attributes.get('desc')}@${attributes.get('line') ?? ''}`;
    } else if (name === 'sourcefile') key = `sourcefile:${pkg}/${attributes.get('name')}`;
    else if (name === 'counter') {
      const kind = attributes.get('type')!.toLowerCase() as CounterKind;
      stack.at(-1)!.counters[kind] = {
        covered: Number(attributes.get('covered')),
        missed: Number(attributes.get('missed')),
      };
    } else if (name === 'line') {
      const file = stack.at(-1)!.key;
      const row = { nr: 0, mi: 0, ci: 0, mb: 0, cb: 0 };
      for (const field of Object.keys(row) as (keyof typeof row)[]) row[field] = Number(attributes.get(field));
      lines.set(file, [...(lines.get(file) ?? []), row]);
    }
    if (key !== null) {
      const element: JacocoElement = { key, counters: {} };
      elements.set(key, element);
      if (!selfClosing) stack.push(element);
    }
  }
  return { elements, lines };
}
