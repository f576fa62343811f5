import {
  type AskDecisionRequest,
  AskDecisionResultSchema,
  type JudgmentRequest,
  PATHS,
  pathTo,
  RiskItemSchema,
} from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { riskKeys } from './risk-keys.ts';

/** POST /api/risks/ask-decision (bulk): observing items become pending. */
export function useAskDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: AskDecisionRequest) => api.post(PATHS.riskAskDecision, AskDecisionResultSchema, body),
    onSuccess: () => client.invalidateQueries({ queryKey: riskKeys.all }),
  });
}

/** POST /api/risks/:id/judgment. */
export function useJudgeRisk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: JudgmentRequest }) =>
      api.post(pathTo(PATHS.riskJudgment, { id }), RiskItemSchema, body),
    onSuccess: () => client.invalidateQueries({ queryKey: riskKeys.all }),
  });
}
