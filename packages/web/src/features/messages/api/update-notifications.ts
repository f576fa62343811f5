import { PATHS, pathTo, UnreadCountSchema } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { notificationsKey } from './get-notifications.ts';

type Change = { kind: 'read'; id: string } | { kind: 'hide'; id: string } | { kind: 'readAll' };

function pathOf(change: Change): string {
  if (change.kind === 'readAll') return PATHS.notificationsReadAll;
  return change.kind === 'read'
    ? pathTo(PATHS.notificationRead, { id: change.id })
    : pathTo(PATHS.notificationHide, { id: change.id });
}

export async function updateNotifications(change: Change): Promise<{ unread: number }> {
  return api.post(pathOf(change), UnreadCountSchema);
}

/** Mark one read, hide one, or mark all read; the list is fetched again afterwards. */
export function useUpdateNotifications() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateNotifications,
    onSettled: () => client.invalidateQueries({ queryKey: notificationsKey }),
  });
}
