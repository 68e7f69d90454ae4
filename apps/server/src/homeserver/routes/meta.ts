/** Discovery: versions, capabilities, push rules, login flows, media config, well-known. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Homeserver } from '../context';
import { auth } from '../http';
import { defaultPushRules } from '../pushrules';

export const metaRoutes =
  (hs: Homeserver, publicUrl: string): FastifyPluginAsync =>
  async (app) => {
    app.get('/client/versions', async () => ({
      versions: [
        'r0.6.1',
        'v1.1',
        'v1.2',
        'v1.3',
        'v1.4',
        'v1.5',
        'v1.6',
        'v1.7',
        'v1.8',
        'v1.9',
        'v1.10',
        'v1.11',
      ],
      unstable_features: {},
    }));
    app.get('/client/v3/capabilities', async (req) => {
      await auth(hs, req);
      return {
        capabilities: {
          'm.change_password': { enabled: false },
          'm.room_versions': { default: '10', available: { '10': 'stable' } },
          'm.set_displayname': { enabled: true },
          'm.set_avatar_url': { enabled: true },
          'm.3pid_changes': { enabled: false },
        },
      };
    });
    const pushRules = async (req: FastifyRequest) => {
      const s = await auth(hs, req);
      return defaultPushRules(s.userId);
    };
    app.get('/client/v3/pushrules/', pushRules);
    app.get('/client/v3/pushrules', pushRules);
    app.get('/client/v3/login', async () => ({
      flows: [{ type: 'm.login.password' }, { type: 'm.login.token' }],
    }));
    const mediaConfig = async () => ({ 'm.upload.size': hs.maxUploadBytes });
    app.get('/client/v1/media/config', async (req) => {
      await auth(hs, req);
      return mediaConfig();
    });
    app.get('/media/v3/config', async (req) => {
      await auth(hs, req);
      return mediaConfig();
    });
    app.get('/client/v3/voip/turnServer', async (req) => {
      await auth(hs, req);
      return {};
    });
    app.get('/client/v3/thirdparty/protocols', async (req) => {
      await auth(hs, req);
      return {};
    });
    void publicUrl;
  };
