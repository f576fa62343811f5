import {
  CASE_CSV_COLUMNS,
  CASE_CSV_REQUIRED,
  CASE_IMPORT_MAX_ROWS,
  CASE_TYPES,
  type CaseImportProblem,
  caseKeySchema,
  caseTagSchema,
  nameSchema,
  requirementKeySchema,
} from '@sextant/api';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../errors.ts';
import type { AppsService } from '../apps/service.ts';
import { asApiError } from '../audit/constraint-errors.ts';
import { type Actor, type AuditService, changedFields } from '../audit/service.ts';
import type { RequirementsService } from '../requirements/service.ts';
import { userIdsByUsername } from '../users/accounts.ts';
import { CsvError, type CsvRow, parseCsv } from './csv.ts';
import { LITE_HIDES_REQUIREMENTS } from './edition.ts';
import type { CasesRepository } from './repository.ts';
import { CASE_RULES, caseSnapshot } from './service.ts';

/** The import was refused as a whole; nothing was stored. */
export class ImportRejected extends Error {
  constructor(
    message: string,
    readonly problems: CaseImportProblem[],
  ) {
    super(message);
  }
}

const RowSchema = z.object({
  key: caseKeySchema,
  title: nameSchema(300),
  type: z.enum(CASE_TYPES, 'Use manual or automated.').optional(),
  requirement: requirementKeySchema.optional(),
  tags: z.array(caseTagSchema).max(20, 'At most 20 tags.'),
  owner: z.string().max(64).optional(),
});
type ParsedRow = z.infer<typeof RowSchema> & { line: number };

type Resolved = { requirementIds: Map<string, string>; ownerIds: Map<string, string> };
type Column = (typeof CASE_CSV_COLUMNS)[number];

function readHeader(header: CsvRow): Map<Column, number> {
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const known = new Set<string>(CASE_CSV_COLUMNS);
  const unknown = names.filter((n) => !known.has(n));
  const missing = CASE_CSV_REQUIRED.filter((c) => !names.includes(c));
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (unknown.length || missing.length || repeated.length) {
    const parts = [
      unknown.length ? `unknown column(s) ${unknown.map((n) => JSON.stringify(n)).join(', ')}` : '',
      missing.length ? `missing column(s) ${missing.join(', ')}` : '',
      repeated.length ? `repeated column(s) ${[...new Set(repeated)].join(', ')}` : '',
    ].filter(Boolean);
    const message = `Wrong columns: ${parts.join('; ')}. Expected a header with ${CASE_CSV_COLUMNS.join(', ')} (key and title required).`;
    throw new ImportRejected(message, [{ row: header.line, column: null, message }]);
  }
  return new Map(names.map((n, i) => [n as Column, i]));
}

/** What an import reads and writes: the cases' own rows, and the apps, requirements and users it names. */
type ImportDeps = {
  db: Db;
  rows: CasesRepository;
  audit: AuditService;
  apps: AppsService;
  requirements: RequirementsService;
};

export class CaseImporter {
  constructor(private readonly deps: ImportDeps) {}

  /** All or nothing: every row is checked first; one bad row and nothing is stored. */
  async run(
    appId: string,
    text: string,
    actor: Actor,
    edition: { requirements: boolean } = { requirements: true },
  ): Promise<{ imported: number }> {
    if (!(await this.deps.apps.names([appId])).has(appId)) throw new ApiError(404, 'not-found', 'No such app.');
    let rows: CsvRow[];
    try {
      rows = parseCsv(text);
    } catch (e) {
      if (!(e instanceof CsvError)) throw e;
      throw new ImportRejected('The file is not valid CSV; nothing was imported.', [
        { row: e.line, column: null, message: e.message },
      ]);
    }
    const [header, ...data] = rows;
    if (!header)
      throw new ImportRejected('The file is empty.', [{ row: 0, column: null, message: 'The file is empty.' }]);
    const columns = readHeader(header);
    if (data.length === 0) {
      throw new ImportRejected('No rows to import.', [{ row: 0, column: null, message: 'No rows under the header.' }]);
    }
    if (data.length > CASE_IMPORT_MAX_ROWS) {
      const message = `At most ${CASE_IMPORT_MAX_ROWS} rows per import.`;
      throw new ImportRejected(message, [{ row: 0, column: null, message }]);
    }
    const problems: CaseImportProblem[] = [];
    const parsed: ParsedRow[] = [];
    const firstLineOfKey = new Map<string, number>();
    for (const row of data) {
      if (row.cells.length !== header.cells.length) {
        const message = `Expected ${header.cells.length} cells, found ${row.cells.length}.`;
        problems.push({ row: row.line, column: null, message });
        continue;
      }
      const cell = (c: Column) => {
        const i = columns.get(c);
        const value = i === undefined ? '' : (row.cells[i] ?? '').trim();
        return value === '' ? undefined : value;
      };
      const result = RowSchema.safeParse({
        key: cell('key') ?? '',
        title: cell('title') ?? '',
        type: cell('type'),
        requirement: cell('requirement'),
        tags: (cell('tags') ?? '').split(';').filter((tag) => tag.trim() !== ''),
        owner: cell('owner'),
      });
      const key = cell('key');
      const first = key === undefined ? undefined : firstLineOfKey.get(key);
      if (key !== undefined && first === undefined) firstLineOfKey.set(key, row.line);
      if (result.success) parsed.push({ ...result.data, line: row.line });
      else {
        for (const issue of result.error.issues) {
          problems.push({ row: row.line, column: String(issue.path[0] ?? ''), message: issue.message });
        }
      }
      if (first !== undefined) {
        problems.push({ row: row.line, column: 'key', message: `Key ${key} is already used on line ${first}.` });
      }
    }
    const refs = await this.checkReferences(appId, parsed, problems, edition);
    if (problems.length > 0) {
      problems.sort((a, b) => a.row - b.row);
      const lines = new Set(problems.map((p) => p.row)).size;
      throw new ImportRejected(`${lines} row(s) have errors; nothing was imported.`, problems);
    }
    return this.store(appId, parsed, refs, actor);
  }

  private async checkReferences(
    appId: string,
    rows: ParsedRow[],
    problems: CaseImportProblem[],
    edition: { requirements: boolean },
  ): Promise<Resolved> {
    const [taken, requirementIds, ownerIds] = await Promise.all([
      this.deps.rows.existingKeys(appId, [...new Set(rows.map((r) => r.key))]),
      this.deps.requirements.idsByKey(rows.flatMap((r) => (r.requirement ? [r.requirement] : []))),
      userIdsByUsername(
        this.deps.db,
        rows.flatMap((r) => (r.owner ? [r.owner] : [])),
      ),
    ]);
    for (const row of rows) {
      if (taken.has(row.key)) {
        problems.push({ row: row.line, column: 'key', message: 'This app already has a case with this key.' });
      }
      if (row.requirement && !edition.requirements) {
        problems.push({ row: row.line, column: 'requirement', message: LITE_HIDES_REQUIREMENTS });
      } else if (row.requirement && !requirementIds.has(row.requirement)) {
        problems.push({ row: row.line, column: 'requirement', message: `No requirement ${row.requirement}.` });
      }
      if (row.owner && !ownerIds.has(row.owner)) {
        problems.push({ row: row.line, column: 'owner', message: `No user ${row.owner}.` });
      }
    }
    return { requirementIds, ownerIds };
  }

  private async store(appId: string, rows: ParsedRow[], refs: Resolved, actor: Actor) {
    const { requirementIds, ownerIds } = refs;
    const values = rows.map((r) => ({
      appId,
      key: r.key,
      title: r.title,
      type: r.type ?? 'manual',
      tags: [...new Set(r.tags)],
      requirementId: r.requirement ? (requirementIds.get(r.requirement) ?? null) : null,
      ownerId: r.owner ? (ownerIds.get(r.owner) ?? null) : null,
    }));
    return this.deps.rows
      .transaction(async (tx) => {
        let imported = 0;
        for (let i = 0; i < values.length; i += 500) {
          const inserted = await this.deps.rows.insertMany(tx, values.slice(i, i + 500));
          await this.deps.audit.recordMany(
            tx,
            actor,
            inserted.map((row) => ({
              entity: 'case' as const,
              entityId: row.id,
              action: 'import' as const,
              changes: changedFields({}, caseSnapshot(row)),
            })),
          );
          imported += inserted.length;
        }
        return { imported };
      })
      .catch((e: unknown) => {
        throw asApiError(e, CASE_RULES);
      });
  }
}
