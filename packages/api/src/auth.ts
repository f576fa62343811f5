import { z } from 'zod';
import { ACTIONS, EDITIONS, RESOURCES } from './abilities.ts';
import { SettingsSchema } from './settings.ts';

export const AbilitySchema = z.object({ action: z.enum(ACTIONS), resource: z.enum(RESOURCES) });

/** userData of specification point 3: exactly these fields. */
export const UserDataSchema = z.object({
  userid: z.string(),
  usertypes: z.array(z.number().int()),
  resourceNums: z.partialRecord(z.enum(RESOURCES), z.union([z.literal(0), z.literal(1)])),
  performanceRiskRules: z.object({
    trace_consuming_time_serious_threshold: z.number(),
    trace_consuming_time_warn_threshold: z.number(),
  }),
  ability: z.array(AbilitySchema),
  role: z.string(),
});
export type UserData = z.infer<typeof UserDataSchema>;

export const LoginRequestSchema = z.object({
  /** A username or an email address. */
  username: z.string().trim().min(1, 'Please enter your username.').max(254),
  password: z.string().min(1, 'Please enter your password.').max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const TokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const LoginResponseSchema = TokenPairSchema.extend({ userData: UserDataSchema, settings: SettingsSchema });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshRequestSchema = z.object({ refreshToken: z.string().min(1).max(512) });

export const LogoutRequestSchema = z.object({ refreshToken: z.string().min(1).max(512).optional() });

export const ProfileSchema = z.object({
  username: z.string(),
  displayName: z.string(),
  email: z.string(),
  preferences: z.object({
    layout: z.enum(['vertical', 'horizontal']).optional(),
    skin: z.enum(['light', 'dark', 'semi-dark', 'bordered']).optional(),
    language: z.enum(['en', 'zh']).optional(),
  }),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** `GET /api/me`: the current userData, with the settings that take effect without a new sign-in. */
export const MeResponseSchema = z.object({
  userData: UserDataSchema,
  settings: SettingsSchema,
  profile: ProfileSchema,
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

/**
 * A new username: no control, format or other invisible characters (issue 32, finding 7), which
 * would let `admin` + U+200B pass for `admin`. The server also compares names case- and NFKC-folded.
 */
export const NewUsernameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter your username.')
  .max(64)
  .refine((name) => !/[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(name), {
    message: 'A username cannot hold invisible or control characters.',
  });

/** `POST /api/jwt/register`: the access-request flow of `/apply`. */
export const RegisterRequestSchema = z.object({
  username: NewUsernameSchema,
  email: z.string().trim().min(1, 'Please enter your email.').max(254).pipe(z.email('Please enter a valid email.')),
  displayName: z.string().trim().max(128).optional(),
  teamId: z.string().max(64).optional(),
  wantedRole: z.string().max(64).optional(),
  reason: z.string().max(2000).optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

export const ResetPasswordRequestSchema = z.object({
  token: z.string().min(1).max(512),
  password: z.string().min(8, 'At least 8 characters.').max(1024),
});

/** An admin-issued single-use reset link (`/pages/dashboard/reset-password?token=…`). */
export const ResetLinkSchema = z.object({ token: z.string(), url: z.string(), expiresAt: z.string() });

/** `PATCH /api/me/profile`: the signed-in user's own name, email and display preferences. */
export const ProfileUpdateSchema = z
  .object({
    displayName: z.string().trim().max(128).optional(),
    email: z.string().trim().max(254).pipe(z.email('Please enter a valid email.')).optional(),
    preferences: ProfileSchema.shape.preferences.partial().optional(),
  })
  .strict();

export const PasswordChangeSchema = z.object({
  currentPassword: z.string().min(1, 'Please enter your current password.').max(1024),
  newPassword: z.string().min(8, 'At least 8 characters.').max(1024),
});

export const AboutSchema = z.object({
  version: z.string(),
  commit: z.string().nullable(),
  database: z.enum(['embedded', 'postgresql']),
  edition: z.enum(EDITIONS),
  docs: z.string(),
});
export type About = z.infer<typeof AboutSchema>;

/**
 * One of the signed-in user's sessions (a sign-in on one device), for person settings: when it
 * began, when its refresh token was last used, from where. `current` marks the caller's own.
 */
export const SessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;
