/**
 * Matrix-shaped errors: `{errcode, error}` with the status the Client-Server API prescribes.
 * Route handlers throw MatrixError; the homeserver's error handler renders it (and maps Fastify's
 * own body errors to M_NOT_JSON / M_TOO_LARGE), never a stack trace.
 */
import type { FastifyError, FastifyInstance } from 'fastify';

export class MatrixError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const mxForbidden = (msg = 'Forbidden') => new MatrixError(403, 'M_FORBIDDEN', msg);
/** A membership change the target's current membership rules out (Synapse's M_BAD_STATE). */
export const mxBadState = (msg: string) => new MatrixError(403, 'M_BAD_STATE', msg);
export const mxNotFound = (msg = 'Not found') => new MatrixError(404, 'M_NOT_FOUND', msg);
export const mxBadJson = (msg = 'Bad JSON') => new MatrixError(400, 'M_BAD_JSON', msg);
export const mxMissingParam = (name: string) =>
  new MatrixError(400, 'M_MISSING_PARAM', `Missing parameter: ${name}`);
export const mxInvalidParam = (msg: string) => new MatrixError(400, 'M_INVALID_PARAM', msg);
export const mxUnknownToken = () =>
  new MatrixError(401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.', { soft_logout: false });
export const mxMissingToken = () => new MatrixError(401, 'M_MISSING_TOKEN', 'Missing access token.');
export const mxUnrecognized = (status = 404) =>
  new MatrixError(status, 'M_UNRECOGNIZED', 'Unrecognized request');

export function installMatrixErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | MatrixError, request, reply) => {
    if (err instanceof MatrixError) {
      return reply.status(err.status).send({ errcode: err.errcode, error: err.message, ...err.extra });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send({ errcode: 'M_NOT_JSON', error: 'Content not JSON.' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({ errcode: 'M_TOO_LARGE', error: 'Request too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(400).send({ errcode: 'M_NOT_JSON', error: 'Content not JSON.' });
      // A NUL character (refused app-wide before any handler, see lib/input.ts).
      case 'NUL_CHARACTER':
        return reply.status(400).send({ errcode: 'M_BAD_JSON', error: err.message });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return reply.status(status).send({ errcode: 'M_UNKNOWN', error: err.message });
    request.log.error({ err }, 'homeserver error');
    return reply.status(500).send({ errcode: 'M_UNKNOWN', error: 'Internal server error' });
  });
}
