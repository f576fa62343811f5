import { z } from 'zod';
import { PageQuerySchema } from './envelope.ts';

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const ApplicationSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  displayName: z.string(),
  team: z.string().nullable(),
  wantedRole: z.string().nullable(),
  reason: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string(),
});
export type Application = z.infer<typeof ApplicationSchema>;

export const ApplicationQuerySchema = PageQuerySchema.extend({ status: z.enum(APPLICATION_STATUSES).optional() });

export const ApproveRequestSchema = z.object({ role: z.string().min(1, 'Please choose a role.').max(64) }).strict();
export const RejectRequestSchema = z
  .object({ reason: z.string().trim().min(1, 'Please give a reason.').max(2000) })
  .strict();

/** Approval creates the account and a single-use link for the applicant to choose a password. */
export const ApprovalSchema = z.object({
  userId: z.string(),
  resetLink: z.object({ token: z.string(), url: z.string(), expiresAt: z.string() }),
});
