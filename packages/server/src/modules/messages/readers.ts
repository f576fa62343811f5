import { abilityAllows, can, type Settings, type UserData } from '@sextant/api';
import type { Audience } from '../../realtime/broker.ts';

/** Whose report messages (progress, build output, heart-beats) a user may read: Report read, and the team. */
export type ReportReader = { readsReports: boolean; everyTeam: boolean; teamIds: ReadonlySet<string> };

export type TeamIdsOf = (userId: string) => Promise<Set<string>>;

export async function reportReaderOf(
  principal: { userData: UserData; settings: Settings },
  teamIdsOf: TeamIdsOf,
): Promise<ReportReader> {
  const { userData, settings } = principal;
  const readsReports = can(
    { ability: userData.ability, resourceNums: userData.resourceNums, edition: settings.licenseVersion },
    'read',
    'Report',
  );
  const everyTeam = abilityAllows(userData.ability, 'manage', 'all');
  const teamIds = readsReports && !everyTeam ? await teamIdsOf(userData.userid) : new Set<string>();
  return { readsReports, everyTeam, teamIds };
}

export function mayReceive(reader: ReportReader, audience: Audience): boolean {
  if (audience === 'everyone') return true;
  if (!reader.readsReports) return false;
  if (reader.everyTeam) return true;
  return audience.reportsOfTeam !== null && reader.teamIds.has(audience.reportsOfTeam);
}

/** The same rights, as a string that changes whenever they do (a signed-in socket ends when it changes). */
export function rightsFingerprint(reader: ReportReader): string {
  return JSON.stringify([reader.readsReports, reader.everyTeam, [...reader.teamIds].sort()]);
}
