/**
 * Media: upload (the chat's media types, CHAT_UPLOAD_TYPES; size limit → M_TOO_LARGE),
 * authenticated v1 download and thumbnail, legacy v3 download.
 */
import { CHAT_UPLOAD_TYPES } from '@openpug/shared';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Homeserver } from '../context';
import { mxForbidden, mxInvalidParam, mxNotFound } from '../errors';
import { auth, params, query } from '../http';
import { loadMedia, storeMedia, thumbnail } from '../media';

export const mediaRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: hs.maxUploadBytes + 1 },
      (_req, payload, done) => done(null, payload),
    );
    app.post('/media/v3/upload', { bodyLimit: hs.maxUploadBytes + 1 }, async (req) => {
      const s = await auth(hs, req);
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const filename = query(req).filename ?? null;
      const type = (req.headers['content-type'] ?? 'application/octet-stream')
        .split(';')[0]
        .trim()
        .toLowerCase();
      // The spec's answer for a type the server does not permit is 403 M_FORBIDDEN (Client-Server
      // API, POST /_matrix/media/v3/upload, responses); the size limit's is 413 M_TOO_LARGE.
      if (!CHAT_UPLOAD_TYPES.includes(type)) throw mxForbidden(`Uploads of type ${type} are not allowed`);
      return { content_uri: await storeMedia(hs, s.userId, data, type, filename) };
    });

    const download = async (req: FastifyRequest, reply: FastifyReply) => {
      const p = params(req);
      const media = await loadMedia(hs, p.serverName, p.mediaId);
      const name = p.fileName ?? media.filename;
      const inline = /^(image|audio|video)\/|^text\/plain/.test(media.contentType);
      reply
        .header('content-type', media.contentType)
        .header('cache-control', 'private, max-age=86400')
        .header('content-security-policy', "sandbox; default-src 'none'; media-src 'self'")
        .header('cross-origin-resource-policy', 'cross-origin');
      if (name)
        reply.header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=utf-8''${encodeURIComponent(name)}`,
        );
      return reply.send(media.data);
    };
    const authed = async (req: FastifyRequest, reply: FastifyReply) => {
      await auth(hs, req);
      return download(req, reply);
    };
    app.get('/client/v1/media/download/:serverName/:mediaId', authed);
    app.get('/client/v1/media/download/:serverName/:mediaId/:fileName', authed);
    // The legacy unauthenticated path served any upload to whoever had its mxc id. Synapse with
    // authenticated media (enable_authenticated_media, on by default since 1.120) answers 404
    // M_NOT_FOUND there for such media, and so does this server: clients use /client/v1/media.
    const legacy = async () => {
      throw mxNotFound('Not found');
    };
    app.get('/media/v3/download/:serverName/:mediaId', legacy);
    app.get('/media/v3/download/:serverName/:mediaId/:fileName', legacy);

    app.get('/client/v1/media/thumbnail/:serverName/:mediaId', async (req, reply) => {
      await auth(hs, req);
      const p = params(req);
      const q = query(req);
      const width = Number(q.width);
      const height = Number(q.height);
      if (!(width > 0) || !(height > 0)) throw mxInvalidParam('width and height must be positive integers');
      const method = q.method === 'scale' ? 'scale' : 'crop';
      const t = await thumbnail(hs, p.serverName, p.mediaId, width, height, method);
      return reply
        .header('content-type', t.contentType)
        .header('cache-control', 'private, max-age=86400')
        .send(t.data);
    });
  };
