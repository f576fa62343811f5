import { type Agent, AgentSchema, PATHS, pathTo } from '@sextant/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

const AgentsSchema = AgentSchema.array();

export async function getAppAgents(appId: string): Promise<Agent[]> {
  return api.get(pathTo(PATHS.appAgents, { id: appId }), AgentsSchema);
}

/** An app's agents with their last heart-beat; polled, since agents beat every 30 s by default. */
export function useAppAgents(appId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: ['apps', appId, 'agents'],
      queryFn: () => getAppAgents(appId as string),
      enabled: appId !== null,
      refetchInterval: 15_000,
    }),
  );
}
