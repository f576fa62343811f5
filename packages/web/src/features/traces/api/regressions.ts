import { type CreateRegression, PATHS, pathTo, RegressionRunDetailSchema, RegressionRunListSchema } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/traces/regressions: the stored runs, newest first. */
export function useRegressionRuns(appId?: string) {
  return useQuery({
    queryKey: ['traces', 'regressions', appId ?? null],
    queryFn: () => api.get(PATHS.regressions, RegressionRunListSchema, { query: { appId } }),
  });
}

/** GET /api/traces/regressions/:id. */
export function useRegressionRun(id: string) {
  return useQuery({
    queryKey: ['traces', 'regression', id],
    queryFn: () => api.get(pathTo(PATHS.regression, { id }), RegressionRunDetailSchema),
  });
}

/** POST /api/traces/regressions: computes and stores a run. */
export function useCreateRegression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateRegression) => api.post(PATHS.regressions, RegressionRunDetailSchema, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['traces', 'regressions'] }),
  });
}
