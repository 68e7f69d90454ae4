/**
 * Privacy module (GDPR self-service, docs/contract.md): `GET /api/privacy` (how a deletion is
 * confirmed), `GET /api/privacy/export` (everything stored about the player, as a JSON download)
 * and `POST /api/privacy/delete` (deletes the account; see service.ts).
 */
import {
  privacyDeleteBodySchema,
  privacyDeleteResponseSchema,
  privacyExportSchema,
  privacyStatusSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { rateLimiter } from '../accounts';
import { currentUser, requireAuth } from '../auth';
import { deleteAccount, exportData, privacyStatus } from './service';

// Auth before validation: without a valid token the answer is 401 whatever the body.
const auth = { preValidation: requireAuth } as const;
const common = { tags: ['privacy'], security: [{ bearer: [] }] };

export function privacyModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/privacy',
      {
        ...auth,
        schema: {
          ...common,
          summary:
            'How this account confirms its deletion: password, or Steam sign-in for Steam-only accounts',
          response: { 200: privacyStatusSchema },
        },
      },
      async (request) => privacyStatus(currentUser(request)),
    );

    app.get(
      '/api/privacy/export',
      {
        ...auth,
        schema: {
          ...common,
          summary: 'Everything stored about the signed-in player, as a JSON attachment',
          response: { 200: privacyExportSchema },
        },
      },
      async (request, reply) => {
        const data = await exportData(ctx, currentUser(request));
        const day = data.exportedAt.slice(0, 10);
        reply
          .header('content-disposition', `attachment; filename="openpug-data-${day}.json"`)
          .header('cache-control', 'no-store');
        return data;
      },
    );

    app.post(
      '/api/privacy/delete',
      {
        ...auth,
        // Password guesses through this route count like password changes.
        onRequest: rateLimiter(ctx, 'password'),
        schema: {
          ...common,
          summary:
            'Delete the account: personal data erased, chat messages redacted, every session ended; matches kept as "Deleted player"',
          body: privacyDeleteBodySchema,
          response: { 200: privacyDeleteResponseSchema },
        },
      },
      async (request) => {
        await deleteAccount(ctx, currentUser(request), request.body);
        return { ok: true as const };
      },
    );
  };
}
