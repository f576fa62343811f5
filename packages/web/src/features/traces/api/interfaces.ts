import { InterfaceDetailSchema, InterfaceListSchema, PATHS } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type WindowSearch = { appId?: string; from?: string; to?: string };

/** GET /api/traces/interfaces: an app's interfaces over the window. */
export function useInterfaces(search: WindowSearch) {
  return useQuery({
    queryKey: ['traces', 'interfaces', search],
    queryFn: () => api.get(PATHS.traceInterfaces, InterfaceListSchema, { query: search }),
    enabled: Boolean(search.appId),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/traces/interface: one interface over the window. */
export function useInterfaceDetail(search: WindowSearch, iface: string) {
  return useQuery({
    queryKey: ['traces', 'interface', search, iface],
    queryFn: () => api.get(PATHS.traceInterface, InterfaceDetailSchema, { query: { ...search, interface: iface } }),
    enabled: Boolean(search.appId && iface),
  });
}
