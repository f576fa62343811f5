import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { type Ability, DEFAULT_SETTINGS, type Resource, type ResourceNums } from '@sextant/api';
import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { roles, settings, users } from './schema/index.ts';

const READABLE: Resource[] = ['Auth', 'ACL', 'TeamDashboard', 'AppDashboard', 'Report', 'Analytics', 'Risk'];

function reads(resources: Resource[]): Ability[] {
  return resources.map((resource) => ({ action: 'read', resource }));
}
function open(resources: Resource[]): ResourceNums {
  return Object.fromEntries(resources.map((r) => [r, 1]));
}

/** Built-in roles of specification point 6; only `admin` may administer the system. */
export const BUILTIN_ROLES: { name: string; abilities: Ability[]; resourceNums: ResourceNums }[] = [
  { name: 'admin', abilities: [{ action: 'manage', resource: 'all' }], resourceNums: { all: 1 } },
  { name: 'client', abilities: reads(['ACL', 'Auth']), resourceNums: open(['ACL', 'Auth']) },
  {
    name: 'developer',
    abilities: [...reads([...READABLE, 'Trace', 'Regression']), { action: 'create', resource: 'Report' }],
    resourceNums: open([...READABLE, 'Trace', 'Regression']),
  },
  {
    name: 'tester',
    abilities: [...reads([...READABLE, 'Case', 'Trace']), { action: 'create', resource: 'Report' }],
    resourceNums: open([...READABLE, 'Case', 'Trace']),
  },
  {
    name: 'manager',
    abilities: [
      ...reads([...READABLE, 'Cockpit', 'ProjectDashboard', 'Requirement']),
      { action: 'create', resource: 'Risk' },
      { action: 'create', resource: 'Analytics' },
    ],
    resourceNums: open([...READABLE, 'Cockpit', 'ProjectDashboard', 'Requirement']),
  },
];

/** Idempotent: inserts what is missing. Returns the admin password when one was generated now. */
export async function seed(db: Db, adminPassword: string | undefined): Promise<string | undefined> {
  await db
    .insert(roles)
    .values(BUILTIN_ROLES.map((r) => ({ ...r, builtin: true })))
    .onConflictDoNothing({ target: roles.name });
  await db
    .insert(settings)
    .values(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing({ target: settings.key });
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
  if (existing) return undefined;
  const [adminRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
  if (!adminRole) throw new Error('admin role missing after seeding');
  const password = adminPassword ?? randomBytes(12).toString('base64url');
  await db
    .insert(users)
    .values({
      username: 'admin',
      usernameKey: 'admin',
      email: 'admin@sextant.local',
      displayName: 'Administrator',
      passwordHash: await hash(password, { algorithm: 2 }),
      roleId: adminRole.id,
      usertypes: [1],
    })
    .onConflictDoNothing();
  return adminPassword ? undefined : password;
}
