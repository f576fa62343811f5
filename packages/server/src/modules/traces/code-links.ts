import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** What a span says of its code (OTel `code.*` attributes, normalised on intake) and its app version. */
export type SpanCode = {
  function: string | null;
  namespace: string | null;
  file: string | null;
  version: string | null;
};

/** Where a span's method is in a coverage report: `/codecoverage/{reportId}?file=…&line=…`. */
export type CoverageLink = { reportId: string; filePath: string | null; line: number | null };

/** Reports looked into per trace: the version's own first, then the newest of the app. */
const RECENT_REPORTS = 5;
/** Distinct code locations resolved per trace; a trace naming more links the first ones. */
const MAX_KEYS = 100;

/**
 * The method's own name and its class, from `code.function` (+ `code.namespace`): `shop.Repo.load`
 * is `load` in `shop.Repo`; `Repo::load` and `Repo#load` likewise.
 */
export function methodOf(code: SpanCode): { method: string; namespace: string | null } | null {
  const fn = code.function?.trim();
  if (!fn) return null;
  const ns = code.namespace?.trim() || null;
  if (ns && fn.startsWith(`${ns}.`)) return { method: fn.slice(ns.length + 1), namespace: ns };
  const split = fn.match(/^(.+?)(?:\.|::|#)([^.:#]+)$/);
  if (split) return { method: split[2] as string, namespace: split[1] as string };
  return { method: fn, namespace: ns };
}

/** The class names a report may know a namespace by: as sent, and as a JVM internal name (`a/b/C`). */
function classNames(namespace: string | null): string[] {
  if (!namespace) return [];
  return [...new Set([namespace, namespace.replaceAll('.', '/'), namespace.replaceAll('::', '/')])];
}

const keyOf = (c: SpanCode) => JSON.stringify([c.function, c.namespace, c.file, c.version]);

/**
 * Links spans' code methods to their coverage (issue 36): the newest successful report of the app
 * (one of the span's version first) that knows the method, by class and method name (a JVM method
 * row is named with its descriptor, `load(I)V`), or by method name in the span's file (formats whose
 * class is the file; `code.file.path` may be absolute, the report's path relative). Reads the reports
 * module's tables.
 */
export class CodeLinks {
  constructor(private readonly db: Db) {}

  async linksOf(appId: string, codes: SpanCode[]): Promise<Map<string, CoverageLink>> {
    const distinct = new Map<string, SpanCode>();
    for (const c of codes) if (c.function && distinct.size < MAX_KEYS) distinct.set(keyOf(c), c);
    const links = new Map<string, CoverageLink>();
    for (const [key, code] of distinct) {
      const link = await this.find(appId, code);
      if (link) links.set(key, link);
    }
    return links;
  }

  link(links: Map<string, CoverageLink>, code: SpanCode): CoverageLink | null {
    return links.get(keyOf(code)) ?? null;
  }

  private async find(appId: string, code: SpanCode): Promise<CoverageLink | null> {
    const parsed = methodOf(code);
    if (!parsed) return null;
    const names = classNames(parsed.namespace);
    const file = code.file?.trim() || null;
    if (names.length === 0 && !file) return null;
    const method = parsed.method;
    const byClass = names.length > 0 ? sql`c.name = any(${sql.param(names)}::text[])` : sql`false`;
    // Within a report, a match by class before one by file alone.
    const classFirst = names.length > 0 ? sql`${byClass} desc,` : sql``;
    const byFile = file
      ? sql`(d.file_path = ${file} or right(${file}::text, length(d.file_path) + 1) = '/' || d.file_path)`
      : sql`false`;
    const { rows } = await this.db.execute<{ report_id: string; file_path: string | null; start_line: number | null }>(
      sql`
      with recent as (
        select id, new_version, rows_generation, coalesce(finished_at, created_at) as finished from reports
        where app_id = ${appId} and status = 'SUCCESS'
        order by new_version is not distinct from ${code.version} desc, coalesce(finished_at, created_at) desc, id desc
        limit ${RECENT_REPORTS}
      )
      select d.report_id, d.file_path, d.start_line
      from recent r
      join report_details d on d.report_id = r.id and d.generation = r.rows_generation and d.kind = 'method'
      join report_details c on c.id = d.class_id
      where (d.name = ${method} or left(d.name, ${method.length + 1}) = ${`${method}(`})
        and (${byClass} or ${byFile})
      order by r.new_version is not distinct from ${code.version} desc, r.finished desc, ${classFirst} d.id
      limit 1`,
    );
    const row = rows[0];
    return row ? { reportId: row.report_id, filePath: row.file_path, line: row.start_line } : null;
  }
}
