import { z } from 'zod';

/** `GET /healthz`: the process is alive and answers. */
export const LivenessSchema = z.object({ alive: z.literal(true) });

const CheckSchema = z.object({ ok: z.boolean(), detail: z.string() });

/** `GET /readyz`: 200 when every check passes, 503 otherwise, with each check's answer. */
export const ReadinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({ database: CheckSchema, migrations: CheckSchema, redis: CheckSchema }),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
