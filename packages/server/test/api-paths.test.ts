import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATHS } from '@sextant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/build-test-app.ts';

// Issue 33: the paths live in one table in packages/api; every route is registered with one of its
// patterns, and the OpenAPI document lists the same operations as before the table (recorded on the
// code before the change).
describe('API paths', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  const patterns = new Set<string>(Object.values(PATHS));
  const routes = () => t.app.accessTable.filter((r) => r.method !== 'HEAD' && !r.url.startsWith(`${PATHS.docs}/`));

  it('registers every route with a pattern of the packages/api table', () => {
    const outside = routes().filter((r) => !patterns.has(r.url));
    expect(outside.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('writes no path literal in a route registration', () => {
    const literal = /\.(get|post|put|patch|delete|head|all)(<[^>(]*>)?\(\s*['"`]\//;
    const offenders = sourceFiles(join(import.meta.dirname, '../src')).filter((file) =>
      literal.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('documents exactly the registered operations, as recorded before the table', async () => {
    const paths = (await t.app.inject({ url: `${PATHS.docs}/json` })).json().paths as Record<string, object>;
    // OTLP/HTTP's path is outside /api (the exporters fix it) and out of the access table: its POST is
    // documented, its other methods answer 405 as the Collector does
    expect(Object.keys(paths[PATHS.otlpTraces] ?? {})).toEqual(['post']);
    const operations = Object.entries(paths)
      .filter(([path]) => path !== PATHS.otlpTraces)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const registered = routes()
      .filter((r) => r.url !== PATHS.ws)
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    expect(operations).toEqual(registered);
    await expect(`${operations.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/openapi-operations.txt');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
