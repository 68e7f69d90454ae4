import { z } from 'zod';
import { ERROR_KEYS, type ErrorKey } from './errors';

// The body of a refused call, apart from the catalogue in errors.ts: the web's first page needs the
// catalogue's texts, and a module that builds zod schemas at its top level would bring zod into
// that page (bundlers cannot prove the schema builders pure), about 25 KB on the wire.
export const errorKeySchema = z.enum(ERROR_KEYS as [ErrorKey, ...ErrorKey[]]);

/**
 * Body of every refused HTTP call. A sign-in refused for a running ban (403 BANNED) also says
 * why and until when (`ban`, as `{reason, endsAt}` of GET /api/moderation/me), so the login page
 * can tell the player.
 */
export const errorBodySchema = z.object({
  errors: z.object({
    msg: errorKeySchema,
    ban: z.object({ reason: z.string(), endsAt: z.number().int().nullable() }).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
export type ErrorDetail = Omit<ErrorBody['errors'], 'msg'>;

export function errorBody(msg: ErrorKey, detail?: ErrorDetail): ErrorBody {
  return { errors: { msg, ...detail } };
}
