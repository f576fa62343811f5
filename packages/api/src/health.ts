import { z } from 'zod';

/** `GET /healthz`: the process is alive and answers. */
export const LivenessSchema = z.object({ alive: z.literal(true) });

const CheckSchema = z.object({ ok: z.boolean(), detail: z.string() });

/**
 * `GET /readyz`: 200 when every check passes, 503 otherwise, with each check's answer; `shutdown`
 * appears once a graceful shutdown has begun (a load balancer stops sending before the port closes).
 */
export const ReadinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: CheckSchema,
    migrations: CheckSchema,
    redis: CheckSchema,
    shutdown: CheckSchema.optional(),
  }),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
