import { z } from 'zod';
import { EDITIONS } from './abilities.ts';

/** System settings that shape every screen (specification points 3, 6, 9). */
export const SettingsSchema = z.object({
  excellentGrade: z.number().min(0).max(1),
  passingGrade: z.number().min(0).max(1),
  licenseVersion: z.enum(EDITIONS),
  showJudgment: z.boolean(),
  wsMaxHistoryLength: z.number().int().min(1),
  /** seconds (specification point 3) */
  traceWarnThreshold: z.number().positive(),
  traceSeriousThreshold: z.number().positive(),
  /** How long received traces are kept (trace management). */
  traceRetentionDays: z.number().int().min(1).max(3650),
  zentaoUrl: z.string(),
  traceViewerUrl: z.string(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export { DEFAULT_SETTINGS } from './default-settings.ts';
