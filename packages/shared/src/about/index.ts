/**
 * The About page (docs/contract.md §2 /about): the community's own words — what it is, its rules,
 * how to reach it — which admins edit per language, beside the facts the server knows (Elo
 * numbers, placement, accept time, version).
 */
import { z } from 'zod';
import { localeSchema } from '../accounts';

// Admin-written texts per language (the About page, a season's details): each text is trimmed
// and capped, '' where none was written; a change names the language it is for; a read asks for
// one language (else the Accept-Language header decides).

/** One admin-written text of at most `max` characters. */
export const adminText = (max: number) => z.string().trim().max(max, 'INVALID_INPUT');

/** `?locale=` of a read of admin-written texts. */
export const localeQuerySchema = z.object({ locale: localeSchema.optional() });

export const ABOUT_TEXT_MAX = 4000;
const aboutText = adminText(ABOUT_TEXT_MAX);

/** The admin-written texts of one language; '' where none was written (the web shows its default). */
export const aboutTextsSchema = z.object({ community: aboutText, rules: aboutText, contact: aboutText });
export type AboutTexts = z.infer<typeof aboutTextsSchema>;

/** PUT /api/about (admins): the texts of one language. */
export const aboutUpdateBodySchema = aboutTextsSchema.extend({ locale: localeSchema });
export type AboutUpdateBody = z.infer<typeof aboutUpdateBodySchema>;

export const aboutQuerySchema = localeQuerySchema;

/** GET /api/about. */
export const aboutSchema = z.object({
  texts: aboutTextsSchema,
  facts: z.object({
    eloStart: z.number().int(),
    eloWin: z.number().int(),
    eloLoss: z.number().int(),
    placementMatches: z.number().int(),
    acceptSeconds: z.number().int(),
  }),
  version: z.string(),
});
export type About = z.infer<typeof aboutSchema>;
