import { randomUUID } from 'node:crypto';

/** The parts of an OpenAPI 3 document (as /api/docs/json serves it) that the fuzz test reads. */
export type JsonSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema?: JsonSchema };
type Operation = {
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

/** One string the request carries: a path or query parameter, or a place in the JSON body. */
export type StringField = { part: 'path' | 'query' | 'body'; path: string[] };

export type FuzzOperation = {
  method: string;
  template: string;
  public: boolean;
  params: Parameter[];
  body: JsonSchema | null;
  fields: StringField[];
};

/** The hostile strings of issue 32 (finding 6), each with a printable label. */
export const HOSTILE_STRINGS: { label: string; value: string }[] = [
  { label: 'NUL', value: 'a\u0000b' },
  { label: 'lone high surrogate', value: 'x\ud800' },
  { label: 'lone low surrogate', value: '\udfffy' },
  { label: '100 KB', value: 'x'.repeat(100 * 1024) },
  { label: 'control characters', value: 'a\u0001\u001b[2J\u007f' },
  { label: 'path traversal', value: '../../etc/passwd' },
  { label: 'encoded NUL', value: '%00' },
  { label: 'zero-width space', value: 'admin\u200b' },
];

function branches(schema: JsonSchema): JsonSchema[] {
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
}

function typeOf(schema: JsonSchema): string | undefined {
  const types = [schema.type ?? []].flat().filter((t) => t !== 'null');
  return types[0];
}

/** The non-null choice of a union, so that a hostile value goes where a string is expected. */
function concrete(schema: JsonSchema): JsonSchema {
  const options = branches(schema).filter((s) => typeOf(s) !== undefined || branches(s).length > 0);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map(concrete));
  return options.find((s) => typeOf(concrete(s)) === 'string') ?? options[0] ?? schema;
}

/** Every string leaf of a body schema (arrays by their first item). */
export function stringPaths(schema: JsonSchema, path: string[] = []): string[][] {
  const s = concrete(schema);
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  if (type === 'string') return [path];
  if (type === 'array' && s.items) return stringPaths(s.items, [...path, '0']);
  if (type === 'object' && s.properties) {
    return Object.entries(s.properties).flatMap(([key, prop]) => stringPaths(prop, [...path, key]));
  }
  return [];
}

const STRING_CANDIDATES = ['fuzz', 'FUZZ-1', '1', 'fuzz value'];

/** A string the schema accepts, as far as the document says (a later check may still refuse it). */
function validString(s: JsonSchema, name: string): string {
  if (s.enum?.length) return String(s.enum[0]);
  if (typeof s.const === 'string') return s.const;
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date') return '2026-01-01';
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  if (/email/i.test(name)) return 'fuzz@example.test';
  if (/url$/i.test(name)) return 'https://example.test/fuzz.git';
  const pattern = s.pattern ? new RegExp(s.pattern, 'u') : null;
  const candidates = [...STRING_CANDIDATES, '2026-01-01', '2026-01-01T00:00:00.000Z'];
  let value = candidates.find((c) => !pattern || pattern.test(c)) ?? 'fuzz';
  while (value.length < (s.minLength ?? 0)) value += 'z';
  return s.maxLength !== undefined ? value.slice(0, Math.max(s.maxLength, 1)) : value;
}

/** A value the schema accepts: required properties only, arrays at their fewest items. */
export function validValue(schema: JsonSchema, name = ''): unknown {
  const s = concrete(schema);
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  if (s.const !== undefined) return s.const;
  switch (type) {
    case 'string':
      return validString(s, name);
    case 'integer':
    case 'number': {
      if (s.enum?.length) return s.enum[0];
      const min = s.minimum ?? 1;
      return s.exclusiveMinimum === true ? min + 1 : Math.max(min, 1);
    }
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items ?? {}, name));
    case 'object':
      return Object.fromEntries(
        (s.required ?? []).map((key) => [key, validValue(s.properties?.[key] ?? {}, key)] as const),
      );
    default:
      return null;
  }
}

/** `base` with the string at `path` replaced by `value`, creating the optional objects and arrays on the way. */
export function withValueAt(schema: JsonSchema, base: unknown, path: string[], value: string): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path as [string, ...string[]];
  const s = concrete(schema);
  if (typeOf(s) === 'array') {
    const list = Array.isArray(base) ? [...base] : [];
    list[0] = withValueAt(s.items ?? {}, list[0] ?? validValue(s.items ?? {}), rest, value);
    return list;
  }
  const record = base !== null && typeof base === 'object' ? { ...(base as Record<string, unknown>) } : {};
  const child = s.properties?.[key] ?? {};
  record[key] = withValueAt(child, record[key] ?? validValue(child, key), rest, value);
  return record;
}

/** Every operation of the document with its string fields; the API docs themselves are left out. */
export function fuzzOperations(doc: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/') || template.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      const fields: StringField[] = [
        ...params
          .filter((p) => typeOf(concrete(p.schema ?? {})) === 'string')
          .map((p): StringField => ({ part: p.in as 'path' | 'query', path: [p.name] })),
        ...(body ? stringPaths(body).map((path): StringField => ({ part: 'body', path })) : []),
      ];
      operations.push({
        method: method.toUpperCase(),
        template,
        public: op.description?.includes('Permission: public.') ?? false,
        params,
        body,
        fields,
      });
    }
  }
  return operations;
}

/**
 * Percent-encodes as UTF-8; a lone surrogate, which encodeURIComponent refuses, goes as the three
 * bytes a careless client would send for it.
 */
export function encodeUrlValue(value: string): string {
  let out = '';
  for (const ch of value) {
    const unit = ch.charCodeAt(0);
    if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** The request of `op` with `hostile` in `field` and valid values elsewhere. */
export function fuzzRequest(op: FuzzOperation, field: StringField | null, hostile: string) {
  const paramValue = (p: Parameter) =>
    field && field.part === p.in && field.path[0] === p.name ? hostile : String(validValue(p.schema ?? {}, p.name));
  const url = op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const param = op.params.find((p) => p.in === 'path' && p.name === name);
    return encodeUrlValue(param ? paramValue(param) : 'fuzz');
  });
  const query = op.params
    .filter((p) => p.in === 'query' && (p.required || (field?.part === 'query' && field.path[0] === p.name)))
    .map((p) => `${encodeURIComponent(p.name)}=${encodeUrlValue(paramValue(p))}`)
    .join('&');
  let payload: unknown;
  if (op.body) {
    const base = validValue(op.body);
    payload = field?.part === 'body' ? withValueAt(op.body, base, field.path, hostile) : base;
  }
  return { method: op.method, url: query ? `${url}?${query}` : url, payload };
}
