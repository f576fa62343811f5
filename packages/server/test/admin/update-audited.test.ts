import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { auditLogs, teams, users } from '../../src/db/schema/index.ts';
import { seed } from '../../src/db/seed.ts';
import { ApiError } from '../../src/errors.ts';
import { type Actor, AuditService, type Executor, firstRow } from '../../src/modules/audit/service.ts';
import { ADMIN_PASSWORD, freshDatabase } from '../support/build-test-app.ts';

const RULES = {
  entity: 'team',
  meanings: { teams_name_unique: { field: 'name', message: 'A team with this name exists.' } },
};

// One database for the file: the tests use distinct team names.
let database: Database;
let audit: AuditService;
let actor: Actor;

beforeAll(async () => {
  database = await freshDatabase();
  await seed(database.db, ADMIN_PASSWORD);
  audit = new AuditService(database.db);
  const admin = await firstRow(database.db.select({ id: users.id }).from(users).where(eq(users.username, 'admin')));
  actor = { id: admin?.id ?? '' };
}, 60_000);
afterAll(async () => database?.close());

const teamNamed = async (name: string) => {
  const [row] = await database.db.insert(teams).values({ name }).returning();
  return row as typeof teams.$inferSelect;
};
const entriesOf = (id: string) => database.db.select().from(auditLogs).where(eq(auditLogs.entityId, id));

describe('AuditService.updateAudited', () => {
  const rename = (id: string, set: { name?: string; description?: string }[], rules?: typeof RULES) =>
    audit.updateAudited({
      entity: 'team',
      id,
      actor,
      notFound: 'No such team.',
      rules,
      current: (tx) => firstRow(tx.select().from(teams).where(eq(teams.id, id)).for('update')),
      update: async (tx: Executor) => {
        let row: typeof teams.$inferSelect | undefined;
        for (const values of set)
          row = await firstRow(tx.update(teams).set(values).where(eq(teams.id, id)).returning());
        return row;
      },
      snapshot: (row) => ({ name: row.name, description: row.description }),
    });

  it('records what changed and returns the updated row', async () => {
    const team = await teamNamed('Alpha');
    const updated = await rename(team.id, [{ name: 'Alpha 2', description: 'renamed' }], RULES);
    expect(updated).toMatchObject({ id: team.id, name: 'Alpha 2', description: 'renamed' });
    const entries = await entriesOf(team.id);
    expect(entries.map((e) => [e.entity, e.action, e.actorId, e.actorName, e.changes])).toEqual([
      [
        'team',
        'update',
        actor.id,
        'admin',
        { name: { from: 'Alpha', to: 'Alpha 2' }, description: { from: team.description, to: 'renamed' } },
      ],
    ]);
  });

  it('writes no entry when the snapshots are equal', async () => {
    const team = await teamNamed('Beta');
    const updated = await rename(team.id, [{ name: 'Beta' }], RULES);
    expect(updated.name).toBe('Beta');
    expect(await entriesOf(team.id)).toEqual([]);
  });

  it('answers 404 with the module’s message for a missing row', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const failure = await rename(missing, [{ name: 'Nobody' }], RULES).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 404, error: 'not-found', message: 'No such team.' });
    expect(await entriesOf(missing)).toEqual([]);
  });

  it('maps a unique violation to the module’s 409 and keeps none of the transaction’s writes', async () => {
    await teamNamed('Gamma');
    const team = await teamNamed('Delta');
    const failure = await rename(team.id, [{ description: 'first write' }, { name: 'Gamma' }], RULES).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 409,
      error: 'conflict',
      message: 'A team with this name exists.',
      fields: { name: 'A team with this name exists.' },
    });
    expect(await firstRow(database.db.select().from(teams).where(eq(teams.id, team.id)))).toEqual(team);
    expect(await entriesOf(team.id)).toEqual([]);
  });

  it('passes a database error through unmapped when no rules are given', async () => {
    await teamNamed('Epsilon');
    const team = await teamNamed('Zeta');
    const failure = await rename(team.id, [{ name: 'Epsilon' }]).catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(ApiError);
    const codes = [failure, (failure as { cause?: unknown }).cause].map((e) => (e as { code?: unknown })?.code);
    expect(codes).toContain('23505');
    expect(await entriesOf(team.id)).toEqual([]);
  });
});

describe('AuditService.audited', () => {
  const renameTo = (id: string, name: string, by: Actor) =>
    audit.audited(by, async (tx) => {
      const row = await firstRow(tx.update(teams).set({ name }).where(eq(teams.id, id)).returning());
      const changes = { name: { from: 'Before', to: name } };
      return { result: row, entry: { entity: 'team', entityId: id, action: 'update', changes } as const };
    });

  it('writes the change and its entry together', async () => {
    const team = await teamNamed('Before');
    const renamed = await renameTo(team.id, 'After', actor);
    expect(renamed?.name).toBe('After');
    expect((await entriesOf(team.id)).map((e) => [e.action, e.actorId, e.changes])).toEqual([
      ['update', actor.id, { name: { from: 'Before', to: 'After' } }],
    ]);
  });

  it('undoes the change when the entry cannot be written (an actor that is no user)', async () => {
    const team = await teamNamed('Kept');
    const ghost = { id: '00000000-0000-4000-8000-000000000001' };
    const failure = await renameTo(team.id, 'Lost', ghost).catch((e: unknown) => e);
    const codes = [failure, (failure as { cause?: unknown }).cause].map((e) => (e as { code?: unknown })?.code);
    expect(codes).toContain('23503');
    expect(await firstRow(database.db.select().from(teams).where(eq(teams.id, team.id)))).toEqual(team);
    expect(await entriesOf(team.id)).toEqual([]);
  });
});
