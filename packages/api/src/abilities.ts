/**
 * Permissions of specification point 6: a route needs an (action, resource) pair; `manage` covers
 * every action and `all` every resource. A resource check passes only when the user's resource map
 * holds 1. Shared by the server (which enforces) and the web (which only hides what would fail).
 */
export const ACTIONS = ['manage', 'read', 'create', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

export const RESOURCES = [
  'all',
  'Auth',
  'ACL',
  // dashboards
  'TeamDashboard',
  'AppDashboard',
  'Report',
  'Analytics',
  'Risk',
  'Cockpit',
  'ProjectDashboard',
  // administration
  'Setting',
  'Team',
  'App',
  'Case',
  'Role',
  'User',
  'Branch',
  'Project',
  'Version',
  'Requirement',
  'Apply',
  'AuditLog',
  'TraceManage',
  // tracing
  'Trace',
  'Regression',
  'InterfaceAnalytic',
] as const;
export type Resource = (typeof RESOURCES)[number];

export type Ability = { action: Action; resource: Resource };
export type ResourceNums = Partial<Record<Resource, 0 | 1>>;

/** Licence editions (specification point 6): advanced shows tracing; lite hides requirements. */
export const EDITIONS = ['advanced', 'basic', 'lite'] as const;
export type Edition = (typeof EDITIONS)[number];
export const EDITION_LABELS: Record<Edition, string> = {
  advanced: 'Efficiency Excellent',
  basic: 'Basic Quality',
  lite: 'Lite',
};

const TRACE_RESOURCES: ReadonlySet<Resource> = new Set(['Trace', 'Regression', 'InterfaceAnalytic', 'TraceManage']);

/** Whether the edition shows a resource at all, whoever asks. */
export function editionAllows(edition: Edition, resource: Resource): boolean {
  if (TRACE_RESOURCES.has(resource)) return edition === 'advanced';
  if (resource === 'Requirement') return edition !== 'lite';
  return true;
}

export function abilityAllows(abilities: readonly Ability[], action: Action, resource: Resource): boolean {
  return abilities.some(
    (a) => (a.action === 'manage' || a.action === action) && (a.resource === 'all' || a.resource === resource),
  );
}

/** Resources every signed-in user may read (specification point 6: visitors get at least read on Auth). */
export const OPEN_RESOURCES: ReadonlySet<Resource> = new Set(['Auth']);

export function resourceAllows(resourceNums: ResourceNums, resource: Resource): boolean {
  if (OPEN_RESOURCES.has(resource)) return true;
  return resourceNums.all === 1 || resourceNums[resource] === 1;
}

export type Permissions = { ability: readonly Ability[]; resourceNums: ResourceNums; edition: Edition };

/** The one decision both sides use: edition, then ability, then resource map. */
export function can(p: Permissions, action: Action, resource: Resource): boolean {
  return (
    editionAllows(p.edition, resource) &&
    abilityAllows(p.ability, action, resource) &&
    resourceAllows(p.resourceNums, resource)
  );
}

/** Ownership (specification point 6): owner id equals user id, or the user types include 1. */
export const ADMINISTRATOR_TYPE = 1;
export function owns(user: { userid: string; usertypes: readonly number[] }, ownerId: string | null): boolean {
  return user.usertypes.includes(ADMINISTRATOR_TYPE) || (ownerId !== null && ownerId === user.userid);
}

export function hasUserType(user: { usertypes: readonly number[] }, type: number): boolean {
  return user.usertypes.includes(type);
}
