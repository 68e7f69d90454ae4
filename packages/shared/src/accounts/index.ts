import { z } from 'zod';
import { LOCALES, MIN_PASSWORD_LENGTH, ROLES, VOICE_LINK_CODE_LENGTH } from '../constants';
import type { UserStatus } from '../status';

/**
 * Accounts contract (docs/contract.md §3 Profile/Session, §4 login and session, §7 account and profile calls):
 * sign-up, login, token refresh, verification, password reset, profile, voice-server linking
 * (Steam: `steam/`). Server and web both import these schemas and types.
 */

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('EMAIL_IS_NOT_VALID').max(254, 'EMAIL_IS_NOT_VALID'));
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, 'PASSWORD_TOO_SHORT_MIN_5')
  .max(256, 'INVALID_INPUT');
export const userNameSchema = z.string().trim().min(1, 'IS_EMPTY').max(64, 'INVALID_INPUT');
export const localeSchema = z.enum(LOCALES);

// --- Users as others see them, and the own profile ---

/** A user as shown in lists, cards and friend items (docs/contract.md §3 "User", without the live status). */
export const publicUserSchema = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  steamUrl: z.string().nullable(),
  /** Filled by the chat module; null until then. */
  matrixId: z.string().nullable().optional(),
  stats: z.object({ elo: z.number().int() }),
  /** Leaderboard position; null while unranked (fewer finished matches than the placement). */
  rank: z.number().int().nullable().optional(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The own profile (docs/contract.md §3 "Profile"); also the `user` of a session. */
export const profileSchema = z.object({
  _id: z.string(),
  role: z.enum(ROLES),
  verified: z.boolean(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  locale: localeSchema,
  steamId: z.string().nullable(),
  csgoId: z.string().nullable(),
  steamUrl: z.string().nullable(),
  teamSpeakId: z.string().nullable(),
  /** The linked identity's nickname on the voice server when it was linked; null before. */
  teamSpeakName: z.string().nullable(),
  phone: z.string().nullable(),
  whatsAppEnabled: z.boolean(),
  avatar: z.string().nullable(),
  sound: z.string(),
  unlockedBanners: z.array(z.string()),
  banner: z.string(),
  unseenDropsCount: z.number().int(),
  discordId: z.string().nullable(),
  /** Leaderboard position; null while unranked (fewer finished matches than the placement). */
  rank: z.number().int().nullable(),
  stats: z.object({ elo: z.number().int() }),
});
export type Profile = z.infer<typeof profileSchema>;
/** Payload of the `privateUserUpdate` socket event: only the changed Profile fields. */
export const profilePatchEventSchema = profileSchema.partial();
export type ProfilePatchEvent = z.infer<typeof profilePatchEventSchema>;

// --- Session calls ---

export const registerBodySchema = z
  .object({
    name: userNameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    /** Optional: when sent it must equal password. */
    confirmPassword: z.string().optional(),
    /** Optional: else taken from Accept-Language (en/de), else en. */
    locale: localeSchema.optional(),
  })
  .refine((b) => b.confirmPassword === undefined || b.confirmPassword === b.password, {
    message: 'PASSWORDS_DONT_MATCH',
    path: ['confirmPassword'],
  });
export type RegisterBody = z.input<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'IS_EMPTY').max(256, 'INVALID_INPUT'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/**
 * Answer of a sign-up: "check your e-mail", the same whether or not the address already has an
 * account (docs/contract.md §4); the account exists once the link in the mail is opened.
 */
export const registerResponseSchema = z.object({ sent: z.literal(true), email: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** Answer of login, Steam login and a confirmed sign-up. `expiresAt` is epoch ms; `matrix` is filled by the chat module. */
export const sessionResponseSchema = z.object({
  user: profileSchema,
  token: z.string(),
  expiresAt: z.number().int(),
  matrix: z.unknown().nullable(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const tokenResponseSchema = z.object({ token: z.string(), expiresAt: z.number().int() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const oneTimeIdSchema = z.string().trim().min(1, 'IS_EMPTY').max(200, 'ID_MALFORMED');
export const verifyBodySchema = z.object({ id: oneTimeIdSchema });
/** `session` only when the link confirmed a sign-up: the new account is signed in right away. */
export const verifyResponseSchema = z.object({
  verified: z.boolean(),
  session: sessionResponseSchema.optional(),
});
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

export const forgotBodySchema = z.object({ email: emailSchema });
/** The same answer whether or not an account has this address. */
export const forgotResponseSchema = z.object({ sent: z.literal(true), email: z.string() });

export const resetBodySchema = z
  .object({ id: oneTimeIdSchema, password: newPasswordSchema, confirmPassword: z.string() })
  .refine((b) => b.password === b.confirmPassword, {
    message: 'PASSWORDS_DONT_MATCH',
    path: ['confirmPassword'],
  });
export type ResetBody = z.infer<typeof resetBodySchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

// --- Profile calls ---

export const profileUpdateBodySchema = z
  .object({
    name: userNameSchema,
    email: emailSchema,
    /** A notification sound file name such as `retro.mp3`. */
    sound: z
      .string()
      .trim()
      .regex(/^[\w-]{1,64}\.(mp3|ogg|wav)$/, 'INVALID_INPUT'),
    banner: z.string().trim().min(1, 'IS_EMPTY').max(100, 'INVALID_INPUT'),
    locale: localeSchema,
  })
  .partial()
  .strict();
export type ProfileUpdateBody = z.infer<typeof profileUpdateBodySchema>;

export const changePasswordBodySchema = z.object({
  oldPassword: z.string().min(1, 'IS_EMPTY').max(256, 'INVALID_INPUT'),
  newPassword: newPasswordSchema,
});
/**
 * Answer of a password change: `ok` plus a fresh session token for the caller. The change signs
 * out every session issued before it, the caller's included, so the caller stores this token.
 */
export const changePasswordResponseSchema = okResponseSchema.extend(tokenResponseSchema.shape);
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

// --- Voice server (TeamSpeak) ---

export const voiceIdentitySchema = z.object({ id: z.string(), name: z.string() });
export type VoiceIdentity = z.infer<typeof voiceIdentitySchema>;
export const teamSpeakIdSchema = z.string().trim().min(1, 'IS_EMPTY').max(200, 'INVALID_INPUT');
export const linkTeamSpeakBodySchema = z.object({ teamSpeakId: teamSpeakIdSchema });
export const teamSpeakCodeBodySchema = z.object({
  teamSpeakId: teamSpeakIdSchema,
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${VOICE_LINK_CODE_LENGTH}}$`), 'INVALID_INPUT'),
});
export const successResponseSchema = z.object({ success: z.boolean() });

declare module '../socket' {
  interface ServerToClientEvents {
    /**
     * The changed fields of the own Profile, after every profile change, and the own live status
     * after every change of it (presence; every tab and device of the user hears it).
     */
    privateUserUpdate: (patch: ProfilePatchEvent & { status?: UserStatus }) => void;
  }
}
