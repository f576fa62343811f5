import {
  type AskDecisionRequest,
  AskDecisionResultSchema,
  type JudgmentRequest,
  RISK_PATHS,
  RiskItemSchema,
} from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { riskKeys } from './risk-keys.ts';

/** POST /api/risks/ask-decision (bulk): observing items become pending. */
export function useAskDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: AskDecisionRequest) =>
      AskDecisionResultSchema.parse(await api.post<unknown>(RISK_PATHS.askDecision, body)),
    onSuccess: () => client.invalidateQueries({ queryKey: riskKeys.all }),
  });
}

/** POST /api/risks/:id/judgment. */
export function useJudgeRisk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: JudgmentRequest }) =>
      RiskItemSchema.parse(await api.post<unknown>(RISK_PATHS.judge.replace(':id', encodeURIComponent(id)), body)),
    onSuccess: () => client.invalidateQueries({ queryKey: riskKeys.all }),
  });
}
