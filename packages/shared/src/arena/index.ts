import { z } from 'zod';

/**
 * Arena servers (docs/contract.md §3 "In Arena"): public CS2 warm-up servers (deathmatch,
 * retakes) that admins list. openpug asks each over RCON (`status_json`) who is on it and sets
 * `inArena` on the status of every player whose linked Steam account is there. Players see the
 * list with the number of players and a connect link; the RCON address and password are for
 * admins only (the password is never sent back).
 */

export const MAX_ARENA_NAME_LENGTH = 64;
export const MAX_ARENA_PASSWORD_LENGTH = 128;

/**
 * `host:port` as players type it into the console's `connect` and openpug reaches RCON: a host
 * name or IPv4 address (or an IPv6 address in brackets) and a port 1–65535.
 */
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?):(\d{1,5})$/i;
export function isHostPort(value: string): boolean {
  const m = HOST_PORT.exec(value);
  if (!m) return false;
  const port = Number(m[3]);
  return port >= 1 && port <= 65535;
}
export const hostPortSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isHostPort, { message: 'ARENA_ADDRESS_INVALID' });

/** `steam://connect/<host:port>`: the Steam client starts CS2 and joins the server. */
export const arenaConnectUrl = (address: string) => `steam://connect/${address}`;

/** GET /api/arena: what every signed-in player sees of a server. */
export const arenaServerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** Where players connect (`host:port`). */
  address: z.string(),
  /** Whether the server answered the last poll (false until the first answer). */
  online: z.boolean(),
  /** Human players on it at the last poll (bots, GOTV and connecting slots not counted). */
  players: z.number().int().min(0),
});
export type ArenaServer = z.infer<typeof arenaServerSchema>;
export const arenaListSchema = z.object({ servers: z.array(arenaServerSchema) });
export type ArenaList = z.infer<typeof arenaListSchema>;

/** GET /api/admin/arena: the same plus where RCON answers and when the server was last asked. */
export const adminArenaServerSchema = arenaServerSchema.extend({
  rconAddress: z.string(),
  /** Epoch ms of the last poll (answered or not); null before the first. */
  polledAt: z.number().nullable(),
});
export type AdminArenaServer = z.infer<typeof adminArenaServerSchema>;
export const adminArenaListSchema = z.object({ servers: z.array(adminArenaServerSchema) });
export type AdminArenaList = z.infer<typeof adminArenaListSchema>;

const nameSchema = z.string().trim().min(1, 'IS_EMPTY').max(MAX_ARENA_NAME_LENGTH, 'INVALID_INPUT');
const passwordSchema = z.string().min(1, 'MISSING').max(MAX_ARENA_PASSWORD_LENGTH, 'INVALID_INPUT');

/** POST /api/admin/arena. */
export const arenaServerCreateSchema = z.object({
  name: nameSchema,
  address: hostPortSchema,
  rconAddress: hostPortSchema,
  rconPassword: passwordSchema,
});
export type ArenaServerCreate = z.infer<typeof arenaServerCreateSchema>;

/** PATCH /api/admin/arena/:id: the fields to change; the password only when a new one is given. */
export const arenaServerUpdateSchema = arenaServerCreateSchema.partial();
export type ArenaServerUpdate = z.infer<typeof arenaServerUpdateSchema>;
