import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/support/build-test-app.ts';
import { users } from '../../db/schema/index.ts';
import { Principals } from './principals.ts';

describe('principal cache', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let adminId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    const [admin] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
    adminId = admin?.id ?? '';
  }, 60_000);
  afterAll(async () => t?.close());

  it('shares one load between concurrent callers and keeps it until invalidated', async () => {
    const principals = new Principals(t.database.db);
    const [a, b] = await Promise.all([principals.load(adminId), principals.load(adminId)]);
    expect(a).toBe(b);
    await t.database.db.update(users).set({ displayName: 'Renamed' }).where(eq(users.id, adminId));
    expect((await principals.load(adminId))?.profile.displayName).not.toBe('Renamed');
    principals.invalidate();
    expect((await principals.load(adminId))?.profile.displayName).toBe('Renamed');
  });
});
