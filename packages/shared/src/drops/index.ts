import { z } from 'zod';
import { listQuerySchema } from '../list';

/**
 * Drops contract (docs/contract.md §3, §7; server module `drops`): the catalogue, awards, the
 * engine's settings, and the banners and sounds that drops unlock.
 */

// --- Drops ------------------------------------------------------------------------------------

export const RARITIES = ['common', 'uncommon', 'rare', 'legendary'] as const;
export type Rarity = (typeof RARITIES)[number];

/** Banners drawn by the web (ezpug is everybody's default); drops can unlock the others. */
export const BANNERS = ['ezpug', 'sunset', 'circuit', 'aurora', 'inferno'] as const;
/** Notification sounds; retro.mp3 is everybody's default, drops can unlock the others. */
export const SOUNDS = ['retro.mp3', 'chime.mp3', 'blip.mp3'] as const;
/** Built-in drop artwork keys (the web draws them); an https URL is also accepted. */
export const DROP_IMAGES = ['crate', 'knife', 'gloves', 'sticker', 'key', 'trophy'] as const;

const imageSchema = z
  .string()
  .trim()
  .min(1, 'IS_EMPTY')
  .max(500, 'INVALID_INPUT')
  .refine(
    (v) => (DROP_IMAGES as readonly string[]).includes(v) || /^https:\/\/\S+$/.test(v),
    'INVALID_INPUT',
  );

/** The most times one catalogue item may be awarded. */
export const MAX_DROP_AMOUNT = 100_000;

/** POST /api/drops/ body (admin). */
export const createDropSchema = z.object({
  name: z.string().trim().min(1, 'IS_EMPTY').max(100, 'INVALID_INPUT'),
  image: imageSchema,
  rarity: z.enum(RARITIES, 'INVALID_INPUT'),
  /** How many times the engine may award it. */
  amount: z.coerce
    .number()
    .int('INVALID_INPUT')
    .min(1, 'INVALID_INPUT')
    .max(MAX_DROP_AMOUNT, 'INVALID_INPUT'),
  unlocksBanner: z.enum(BANNERS, 'INVALID_INPUT').nullable().optional(),
  unlocksSound: z.enum(SOUNDS, 'INVALID_INPUT').nullable().optional(),
});
export type CreateDrop = z.infer<typeof createDropSchema>;
export type CreateDropInput = z.input<typeof createDropSchema>;

/** A catalogue item with its award count. */
export const dropItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  rarity: z.enum(RARITIES),
  amount: z.number().int(),
  awarded: z.number().int().min(0),
  unlocksBanner: z.string().nullable(),
  unlocksSound: z.string().nullable(),
  createdAt: z.string(),
});
export type DropItem = z.infer<typeof dropItemSchema>;

/** An awarded drop (docs/contract.md §3 Drop: `_id`, `redeemed` — the only field an admin changes). */
export const dropSchema = z.object({
  _id: z.string(),
  dropId: z.string(),
  name: z.string(),
  image: z.string(),
  rarity: z.enum(RARITIES),
  unlocksBanner: z.string().nullable(),
  unlocksSound: z.string().nullable(),
  owner: z.object({ _id: z.string(), name: z.string().nullable() }),
  matchId: z.string().nullable(),
  createdAt: z.string(),
  seen: z.boolean(),
  /** Only for the owner and admins. */
  redeemed: z.boolean().optional(),
});
export type Drop = z.infer<typeof dropSchema>;

export const dropsQuerySchema = listQuerySchema.extend({
  sort: z.enum(['createdAt', 'name', 'rarity'], 'ERROR_WITH_FILTER').optional(),
});
export const dropItemsPageSchema = z.object({
  docs: z.array(dropItemSchema),
  totalDocs: z.number().int().min(0),
});
export const dropsPageSchema = z.object({ docs: z.array(dropSchema), totalDocs: z.number().int().min(0) });
export type DropsPage = z.infer<typeof dropsPageSchema>;
export type DropItemsPage = z.infer<typeof dropItemsPageSchema>;

/** PATCH /api/drops/:id body: `redeemed` is the only field; anything else is refused. */
export const patchDropSchema = z.strictObject({ redeemed: z.boolean('INVALID_INPUT') }, 'INVALID_INPUT');

export const dropEngineSettingsSchema = z.object({
  enabled: z.boolean('INVALID_INPUT'),
  /** Time between two rolls. */
  intervalMs: z.coerce
    .number()
    .int('INVALID_INPUT')
    .min(1_000, 'INVALID_INPUT')
    .max(7 * 86_400_000, 'INVALID_INPUT'),
});
export type DropEngineSettings = z.infer<typeof dropEngineSettingsSchema>;
export const dropEngineStateSchema = dropEngineSettingsSchema.extend({
  /** Chance of the next roll, 0..1 (grows while nothing drops). */
  nextChance: z.number().min(0).max(1),
  /** ISO time of the next roll, null when off. */
  nextRollAt: z.string().nullable(),
});
export type DropEngineState = z.infer<typeof dropEngineStateSchema>;

/** What the signed-in player has unlocked (Settings offers only these). */
export const unlocksSchema = z.object({ banners: z.array(z.string()), sounds: z.array(z.string()) });
export type Unlocks = z.infer<typeof unlocksSchema>;

export const publicDropSchema = z.object({ username: z.string(), dropName: z.string() });
export type PublicDrop = z.infer<typeof publicDropSchema>;

/** Success message keys of the competition calls (`msg`). */
export const COMPETITION_SUCCESS = {
  SAVED_SUCCESSFULLY: 'SAVED_SUCCESSFULLY',
  DELETED_SUCCESSFULLY: 'DELETED_SUCCESSFULLY',
} as const;

declare module '../socket' {
  interface ServerToClientEvents {
    /** To everyone: a player received a drop (the web shows a 6.5 s toast). */
    PUBLIC_DROP: (payload: PublicDrop) => void;
  }
}
