import { z } from 'zod';

/** Ids are UUID strings (any version); anything else is ID_MALFORMED. */
export const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const idSchema = z.string().regex(ID_PATTERN, 'ID_MALFORMED');
export const isId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);

/** Path params: validated as strings, then checked for the id format (400 ID_MALFORMED). */
export const idParamsSchema = z.object({ id: z.string() });
export const userIdParamsSchema = z.object({ userId: z.string() });
