import { RISK_STATES } from '@sextant/api';
import { and, getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { riskItemCounts, riskItems } from '../../db/schema/index.ts';
import { authorIsSql } from '../../lib/git-authors.ts';
import { preparedStatementRows, StatementCache } from '../../lib/prepared-read.ts';
import type { RiskFilter, RiskRow } from './repository.ts';

/**
 * The risk screens' reads (issue 34) as one prepared statement per call: the home list, pending list
 * and headline are asked for by every user landing on the home screen, and each is an index walk over
 * a few rows, so round trips, query building and planning were most of their cost (bench/risks.ts).
 * The page, its total and the apps' names come back from one statement. Each statement is built once
 * per shape (`filterShape`: which filters are set, the states, the sort), its values as placeholders
 * filled per call (`filterValues`).
 */

const NO_ID = '00000000-0000-0000-0000-000000000000';

/** Every column as its property name; the due date as text (`YYYY-MM-DD`, as drizzle reads it). */
const COLUMNS = sql.join(
  Object.entries(getTableColumns(riskItems)).map(([key, column]) =>
    key === 'dueDate' ? sql`${column}::text as ${sql.identifier(key)}` : sql`${column} as ${sql.identifier(key)}`,
  ),
  sql`, `,
);

export const OVERDUE = sql<boolean>`(${riskItems.state} = 'judged' and ${riskItems.judgment} = 'needs-test'
  and ${riskItems.dueDate} < current_date)`;

/** The sorts the screens offer; each has a `(column, id)` index (db/schema/risks.ts). */
export const SORTS = {
  severity: riskItems.severity,
  createdAt: riskItems.createdAt,
  dueDate: riskItems.dueDate,
  changedLines: riskItems.changedLines,
  // The expression of the index risk_items_ratio_idx, word for word.
  lineCoverage: sql`(case when ${riskItems.lineTotal} > 0 then ${riskItems.lineCovered}::float8 / ${riskItems.lineTotal} else 0 end)`,
  app: riskItems.appId,
} as const;
export type RiskPage = { page: number; perPage: number; sortBy: keyof typeof SORTS; sortDesc: boolean };

/**
 * States are written as constants, not parameters: the planner then proves that a list of open states
 * matches the partial indexes on open items, also in a prepared statement's generic plan.
 */
function statesSql(column: SQLWrapper, states: readonly string[]): SQL {
  const known = RISK_STATES.filter((s) => states.includes(s));
  return sql`${column} in (${sql.raw(known.map((s) => `'${s}'`).join(', ') || 'null')})`;
}

/** The filter's values, by the placeholders' names `riskWhere` and `countsWhere` use. */
const V = {
  appIds: sql.placeholder('appIds'),
  version: sql.placeholder('version'),
  testType: sql.placeholder('testType'),
  author: sql.placeholder('author'),
  emails: sql.placeholder('emails'),
  names: sql.placeholder('names'),
  assigneeId: sql.placeholder('assigneeId'),
  kind: sql.placeholder('kind'),
  ids: sql.placeholder('ids'),
};

/** What the text of a filter's statements depends on: which filters are set, and the states. */
export function filterShape(f: RiskFilter): string {
  const identities = f.authorIdentities
    ? `${f.authorIdentities.emails.length > 0 ? 'e' : ''}${f.authorIdentities.names.length > 0 ? 'n' : ''}`
    : '-';
  const set = [f.version, f.testType, f.author, f.assigneeId, f.kind, f.ids].map((v) => (v ? 1 : 0)).join('');
  const states = f.state && f.state.length > 0 ? RISK_STATES.filter((s) => f.state?.includes(s)).join(',') : '*';
  return `${f.appIds === null ? 'every' : 'apps'}|${set}|${identities}|${states}`;
}

/** The filter's values for the placeholders of its statements. */
export function filterValues(f: RiskFilter): Record<string, unknown> {
  return {
    appIds: f.appIds === null ? null : f.appIds.length > 0 ? [...f.appIds] : [NO_ID],
    version: f.version ?? null,
    testType: f.testType ?? null,
    author: f.author ? `%${f.author.replace(/[\\%_]/g, '\\$&')}%` : null,
    emails: f.authorIdentities?.emails ?? null,
    names: f.authorIdentities?.names ?? null,
    assigneeId: f.assigneeId ?? null,
    kind: f.kind ?? null,
    ids: f.ids && f.ids.length > 0 ? [...f.ids] : [NO_ID],
  };
}

/** The filter over risk_items (its values as placeholders; the text depends only on `filterShape`). */
export function riskWhere(f: RiskFilter): SQL {
  return (
    and(
      f.appIds === null ? undefined : sql`${riskItems.appId} = any(${V.appIds}::uuid[])`,
      f.version ? sql`${riskItems.version} = ${V.version}` : undefined,
      f.testType ? sql`${riskItems.testType} = ${V.testType}` : undefined,
      f.author ? sql`${riskItems.author} ilike ${V.author}` : undefined,
      f.authorIdentities ? authorIsSql(riskItems.author, f.authorIdentities, V) : undefined,
      f.assigneeId ? sql`${riskItems.assigneeId} = ${V.assigneeId}` : undefined,
      f.kind ? sql`${riskItems.kind} = ${V.kind}` : undefined,
      f.state && f.state.length > 0 ? statesSql(riskItems.state, f.state) : undefined,
      f.ids ? sql`${riskItems.id} = any(${V.ids}::uuid[])` : undefined,
    ) ?? sql`true`
  );
}

/** Filters risk_item_counts answers: apps, kind and state only. */
export const countable = (f: RiskFilter) =>
  !f.version && !f.testType && !f.author && !f.authorIdentities && !f.assigneeId && !f.ids;

export function countsWhere(f: RiskFilter): SQL {
  return (
    and(
      f.appIds === null ? undefined : sql`${riskItemCounts.appId} = any(${V.appIds}::uuid[])`,
      f.kind ? sql`${riskItemCounts.kind} = ${V.kind}` : undefined,
      f.state && f.state.length > 0 ? statesSql(riskItemCounts.state, f.state) : undefined,
    ) ?? sql`true`
  );
}

/** The filter's total: the sum of risk_item_counts where apps, kind and state alone filter, else exact. */
function totalSql(f: RiskFilter): SQL {
  return countable(f)
    ? sql`(select coalesce(sum(${riskItemCounts.n}), 0)::int from ${riskItemCounts} where ${countsWhere(f)})`
    : sql`(select count(*)::int from ${riskItems} where ${riskWhere(f)})`;
}

/** From this offset on, a page's ids are found before its rows are read. */
const DEEP_OFFSET = 200;

/** `overdue`: the overdue "needs test" items; `rest`: the others; `all`: a filter without judged items. */
type Part = { items: 'overdue' | 'rest' | 'all'; offset: number; limit: number; withTotal: boolean };

const statements = new StatementCache();
const LIMIT = sql.placeholder('limit');
const OFFSET = sql.placeholder('offset');

/**
 * One part of a page (the overdue items, or the rest) in the sort's index order, with the apps' names
 * (read by name, as directory.ts reads apps) and, when asked, the filter's total: one round trip. The
 * overdue part picks its ids first from the partial index risk_items_overdue_due_idx (due date,
 * severity, id: overdue items are few, and their rows are read only for the page).
 */
export async function pagePart(db: Db, f: RiskFilter, page: RiskPage, part: Part) {
  const deep = part.offset >= DEEP_OFFSET;
  const shape = `page|${filterShape(f)}|${page.sortBy}|${page.sortDesc}|${part.items}|${deep}|${part.withTotal}`;
  const statement = statements.get(shape, () => pageSql(f, page, part.items, deep, part.withTotal));
  const rows = await preparedStatementRows(db, statement, {
    ...filterValues(f),
    limit: part.limit,
    offset: part.offset,
    overdueLimit: part.offset + part.limit,
  });
  const total = Number(rows[0]?.total ?? 0);
  return { rows: rows.filter((r) => r.id !== null) as unknown as RiskRow[], total };
}

/** The statement of one page part (see pagePart); its values are placeholders. */
export function pageSql(f: RiskFilter, page: RiskPage, items: Part['items'], deep: boolean, withTotal: boolean): SQL {
  const column = SORTS[page.sortBy];
  const dir = sql.raw(page.sortDesc ? 'desc nulls first' : 'asc nulls last');
  const idDir = sql.raw(page.sortDesc ? 'desc' : 'asc');
  const order = sql`order by ${column} ${dir}, ${riskItems.id} ${idDir}`;
  const matching =
    items === 'overdue'
      ? sql`${riskItems.id} in (select ${riskItems.id} from ${riskItems} where ${riskWhere(f)} and ${OVERDUE}
        ${order} limit ${sql.placeholder('overdueLimit')})`
      : items === 'rest'
        ? sql`${riskWhere(f)} and ${OVERDUE} is not true`
        : riskWhere(f);
  // A deep page finds its ids first, stepping over the skipped entries in the sort's index alone (the
  // open items' partial indexes hold every column that needs), then reads only the page's rows.
  const inner = deep
    ? sql`select ${COLUMNS}, ${OVERDUE} as "overdue", ${column} as "sortKey" from ${riskItems}
        where ${riskItems.id} = any(array(select ${riskItems.id} from ${riskItems} where ${matching}
          ${order} limit ${LIMIT} offset ${OFFSET}))`
    : sql`select ${COLUMNS}, ${OVERDUE} as "overdue", ${column} as "sortKey" from ${riskItems}
        where ${matching} ${order} limit ${LIMIT} offset ${OFFSET}`;
  // The app's name and team by one key probe per row of the page: `offset 0` keeps the planner from
  // turning it into a join, which hashes every app (a generic plan cannot know the page is 20 rows).
  return sql`select ${withTotal ? totalSql(f) : sql`null::int`} as "total", p.*, a.name as "appName", a.team_id as "teamId"
      from (select 1) one left join (${inner}) p on true
      left join lateral (select a.name, a.team_id from apps a where a.id = p."appId" offset 0) a on true
      order by p."sortKey" ${dir}, p."id" ${idDir}`;
}

const OPEN_STATES = ['observing', 'pending'] as const;

/** The headline's figures for a filter (see RisksRepository.headline). */
export function headlineRows(db: Db, f: RiskFilter) {
  const statement = statements.get(`headline|${filterShape(f)}`, () => headlineSql(f));
  return preparedStatementRows(db, statement, filterValues(f));
}

/** The headline's statement; its values are placeholders. */
export function headlineSql(f: RiskFilter): SQL {
  const where = riskWhere(f);
  const states = f.state && f.state.length > 0 ? f.state : null;
  const judgedIn = !states || states.includes('judged');
  const counting = (condition: SQL) => sql`(select count(*)::int from ${riskItems} where ${where} and ${condition})`;
  const needsTest = sql`${riskItems.state} = 'judged' and ${riskItems.judgment} = 'needs-test'`;
  const weekAgo = sql`now() - interval '7 days'`;
  // The oldest open item: one index probe (state, created_at) per open state the filter admits.
  const probes = [
    ...OPEN_STATES.filter((s) => !states || states.includes(s)).map((s) => sql`${riskItems.state} = '${sql.raw(s)}'`),
    ...(judgedIn ? [needsTest] : []),
  ].map(
    (condition) =>
      sql`(select ${riskItems.createdAt} from ${riskItems} where ${where} and ${condition} order by ${riskItems.createdAt} limit 1)`,
  );
  const week = sql`${counting(sql`${riskItems.createdAt} >= ${weekAgo}`)} as "newThisWeek",
    ${counting(sql`${riskItems.resolvedAt} >= ${weekAgo}`)} as "resolvedThisWeek",
    ${judgedIn ? counting(OVERDUE) : sql`0`} as "overdue"`;
  const oldest = probes.length > 0 ? sql`least(${sql.join(probes, sql`, `)})` : sql`null::timestamptz`;
  if (!countable(f)) {
    return sql`select ${counting(sql`(${riskItems.state} in ('observing', 'pending') or (${needsTest}))`)} as "open",
      ${counting(sql`${riskItems.state} = 'pending'`)} as "pending", ${week}, ${oldest} as "oldestOpenAt"`;
  }
  // Open and pending in one pass over the filter's counter rows.
  return sql`select c.open, c.pending, ${week}, ${oldest} as "oldestOpenAt" from (select
      coalesce(sum(${riskItemCounts.n}) filter (where ${riskItemCounts.state} in ('observing', 'pending')
        or (${riskItemCounts.state} = 'judged' and ${riskItemCounts.judgment} = 'needs-test')), 0)::int as "open",
      coalesce(sum(${riskItemCounts.n}) filter (where ${riskItemCounts.state} = 'pending'), 0)::int as "pending"
    from ${riskItemCounts} where ${countsWhere(f)}) c`;
}
