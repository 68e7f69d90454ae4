/**
 * Refusals: every refused call answers `{ errors: { msg: KEY } }` with a catalogue key (docs/contract.md §8)
 * and a fitting status. Never a stack trace, never a 500 for bad input.
 */
import { ERROR_KEYS, type ErrorDetail, type ErrorKey, errorBody, errorBodySchema } from '@openpug/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: ErrorKey,
    /** More for the client beside the key (a ban's reason and end at sign-in). */
    readonly detail?: ErrorDetail,
  ) {
    super(key);
  }
}

export const badRequest = (key: ErrorKey = 'INVALID_INPUT') => new AppError(400, key);
export const unauthorized = (key: ErrorKey = 'UNAUTHORIZED') => new AppError(401, key);
export const forbidden = (key: ErrorKey = 'UNAUTHORIZED') => new AppError(403, key);
export const notFound = (key: ErrorKey = 'NOT_FOUND') => new AppError(404, key);
export const conflict = (key: ErrorKey) => new AppError(409, key);
export const unprocessable = (key: ErrorKey) => new AppError(422, key);

/** The refusal statuses a route documents (its OpenAPI `response` entries), each with the error body. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    S,
    typeof errorBodySchema
  >;
}

const knownKeys = new Set<string>(ERROR_KEYS);

/**
 * The catalogue key for the first failing field of a zod validation: schemas carry catalogue keys
 * as their messages (e.g. `.email('EMAIL_IS_NOT_VALID')`); a missing field is MISSING.
 */
export function keyOfZodIssues(issues: readonly z.core.$ZodIssue[]): ErrorKey {
  const first = issues[0];
  if (!first) return 'INVALID_INPUT';
  if (knownKeys.has(first.message)) return first.message as ErrorKey;
  if (first.code === 'invalid_type' && /received undefined/.test(first.message)) return 'MISSING';
  return 'INVALID_INPUT';
}

/**
 * Refusals of the router itself, before any route or error handler runs (a path parameter longer
 * than maxParamLength, a URL that does not decode): Fastify's own body would carry no key.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.status(err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400).send(errorBody('INVALID_INPUT'));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) return reply.status(err.status).send(errorBody(err.key, err.detail));
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The provider flattens each zod issue into {keyword: code, message, params: rest}.
      const issues = err.validation.map(
        (v) => ({ ...v.params, code: v.keyword, message: v.message ?? '' }) as unknown as z.core.$ZodIssue,
      );
      return reply.status(422).send(errorBody(keyOfZodIssues(issues)));
    }
    const status = err.statusCode ?? 500;
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send(errorBody('MALFORMED_JSON'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send(errorBody('PAYLOAD_TOO_LARGE'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send(errorBody('INVALID_INPUT'));
    }
    if (status === 429) return reply.status(429).send(errorBody('TOO_MANY_REQUESTS'));
    if (status === 404) return reply.status(404).send(errorBody('NOT_FOUND'));
    if (status >= 400 && status < 500) return reply.status(status).send(errorBody('INVALID_INPUT'));
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('ERROR'));
  });
}
