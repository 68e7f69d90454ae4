/**
 * The About page (docs/contract.md §2 /about): GET /api/about answers anyone the texts admins wrote
 * for a language (else '') with the facts of this deployment — the Elo numbers, the placement,
 * the accept time and the version. PUT /api/about (admins, audited) replaces one language's texts.
 */
import {
  aboutQuerySchema,
  aboutSchema,
  aboutUpdateBodySchema,
  ELO_DEFAULT,
  type Locale,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requestLocale } from '../accounts';
import { requireAdmin } from '../auth';
import { aboutTextsOf, saveAboutTexts } from './service';

export function aboutModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const about = async (locale: Locale) => ({
      texts: await aboutTextsOf(ctx.db, locale),
      facts: {
        eloStart: ELO_DEFAULT,
        eloWin: ctx.config.ELO_WIN,
        eloLoss: ctx.config.ELO_LOSS,
        placementMatches: ctx.config.PLACEMENT_MATCHES,
        acceptSeconds: Math.round(ctx.config.ACCEPT_TIMEOUT_MS / 1000),
      },
      version: ctx.version,
    });

    app.get(
      '/api/about',
      {
        schema: {
          tags: ['about'],
          summary: "The About page: the community's texts in a language, and this deployment's rules",
          querystring: aboutQuerySchema,
          response: { 200: aboutSchema },
        },
      },
      async (request) => about(requestLocale(request)),
    );

    app.put(
      '/api/about',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['about'],
          summary: "Admin: replace one language's About texts (audited)",
          security: [{ bearer: [] }],
          body: aboutUpdateBodySchema,
          response: { 200: aboutSchema },
        },
      },
      async (request) => {
        const { locale, ...texts } = request.body;
        const actorId = request.userId as string; // requireAdmin let only a signed-in admin through
        await saveAboutTexts(ctx, locale, texts, actorId);
        return about(locale);
      },
    );
  };
}
