import { type NotificationPage, NotificationPageSchema, PATHS } from '@sextant/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export const NOTIFICATIONS_PER_PAGE = 20;

export async function getNotifications(page: number): Promise<NotificationPage> {
  return api.get(PATHS.notifications, NotificationPageSchema, { query: { page, perPage: NOTIFICATIONS_PER_PAGE } });
}

/** The key every notification mutation and real-time push invalidates. */
export const notificationsKey = ['notifications'] as const;

export const notificationsQueryOptions = (page = 1) =>
  queryOptions({ queryKey: [...notificationsKey, page], queryFn: () => getNotifications(page) });

export function useNotifications(page = 1) {
  return useQuery(notificationsQueryOptions(page));
}
