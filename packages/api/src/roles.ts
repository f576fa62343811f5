import { z } from 'zod';
import { ACTIONS, RESOURCES } from './abilities.ts';
import { AbilitySchema } from './auth.ts';

export const ResourceNumsSchema = z.partialRecord(z.enum(RESOURCES), z.union([z.literal(0), z.literal(1)]));

export const RoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  ability: z.array(AbilitySchema),
  resourceNums: ResourceNumsSchema,
  builtin: z.boolean(),
  users: z.number().int().nonnegative(),
});
export type Role = z.infer<typeof RoleSchema>;

/** A role as the matrix screen edits it: abilities (action × resource) and the resource map. */
export const RoleInputSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Please enter a name.')
      .max(64, 'At most 64 characters.')
      .regex(/^[\w .-]+$/, 'Letters, digits, spaces, dots, dashes and underscores only.'),
    ability: z.array(AbilitySchema).max(ACTIONS.length * RESOURCES.length),
    resourceNums: ResourceNumsSchema,
  })
  .strict();
export type RoleInput = z.infer<typeof RoleInputSchema>;

/** A user as the administration lists and saves it (GET/POST/PATCH /api/users). */
export const UserRowSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.string(),
  usertypes: z.array(z.number().int()),
  enabled: z.boolean(),
});
export type UserRow = z.infer<typeof UserRowSchema>;

export const UserUpdateSchema = z
  .object({
    displayName: z.string().trim().max(128).optional(),
    email: z.string().trim().max(254).pipe(z.email('Please enter a valid email.')).optional(),
    role: z.string().min(1).max(64).optional(),
    usertypes: z.array(z.number().int().min(0).max(99)).max(16).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UserUpdate = z.infer<typeof UserUpdateSchema>;
