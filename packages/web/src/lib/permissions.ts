import { type Action, can, type Resource } from '@sextant/api';
import { useSession } from './session.tsx';

/** Hides what the server would refuse; the server still decides. */
export function usePermission(action: Action, resource: Resource): boolean {
  const { userData, settings } = useSession();
  if (!userData) return false;
  return can(
    { ability: userData.ability, resourceNums: userData.resourceNums, edition: settings.licenseVersion },
    action,
    resource,
  );
}
