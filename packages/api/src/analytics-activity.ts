import { z } from 'zod';

/**
 * Test activity and risk burn-down for the app analytics screen and the cockpit (issue 35): uploads
 * and the agents that sent them per day, the agents' last heart-beats, and risks opened and closed.
 */

/** Coverage uploads received per day, and how many distinct agents sent them (an upload names its agent). */
export const UploadDaySchema = z.object({ day: z.string(), uploads: z.number().int(), agents: z.number().int() });
export type UploadDay = z.infer<typeof UploadDaySchema>;

/** An agent is alive while its last heart-beat, a HEART_BEAT_DONE, is at most this old. */
export const AGENT_ALIVE_SECONDS = 600;

/** Per app and environment: the agents known, alive now, failing now, and the last heart-beat. */
export const AgentsNowSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  envType: z.string(),
  agents: z.number().int(),
  alive: z.number().int(),
  /** Beat within the window, but with HEART_BEAT_ERROR. */
  failing: z.number().int(),
  lastHeartbeatAt: z.string(),
});
export type AgentsNow = z.infer<typeof AgentsNowSchema>;

/**
 * Risk burn-down from the risk items' history: per day (or ISO week over long ranges) the items opened
 * (new, or observed anew) and closed (resolved, or judged an accepted risk or a false positive), and
 * how many were open at the end of it.
 */
export const BurnDownPointSchema = z.object({
  day: z.string(),
  opened: z.number().int(),
  closed: z.number().int(),
  open: z.number().int(),
});
export type BurnDownPoint = z.infer<typeof BurnDownPointSchema>;
export const RiskBurnDownSchema = z.object({
  bucket: z.enum(['day', 'week']),
  points: z.array(BurnDownPointSchema),
});
export type RiskBurnDown = z.infer<typeof RiskBurnDownSchema>;
