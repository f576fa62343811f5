import { PATHS, ZentaoStatusSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/session.tsx';

export const ZENTAO_STATUS_KEY = ['zentao', 'status'] as const;

/** `/zentao`'s status: ZenTao's address, whether it may be framed here, the last import. */
export function useZentaoStatus() {
  return useQuery({ queryKey: ZENTAO_STATUS_KEY, queryFn: () => api.get(PATHS.zentao, ZentaoStatusSchema) });
}
