/**
 * Sessions: login (m.login.password, m.login.token), register, logout, whoami, login tokens, and
 * Synapse's shared-secret admin registration (so the product's provisioning code talks to the
 * embedded homeserver and to Synapse the same way).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sameSecret } from '../../lib/secrets';
import type { Homeserver } from '../context';
import { MatrixError, mxBadJson, mxForbidden, mxMissingParam, mxNotFound } from '../errors';
import { roomsOf } from '../events';
import { auth, body, requireString } from '../http';
import { leaveRoom } from '../rooms';
import {
  createLoginToken,
  createUser,
  deactivateUser,
  deleteDevices,
  devicesOf,
  isAdmin,
  issueToken,
  logout,
  passwordLogin,
  setPassword,
  tokenLogin,
  userExists,
} from '../users';

export const authRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    app.post('/client/v3/login', async (req) => {
      const b = body(req);
      const deviceId = typeof b.device_id === 'string' ? b.device_id : undefined;
      if (b.type === 'm.login.password') {
        const identifier = (typeof b.identifier === 'object' && b.identifier) as
          | Record<string, unknown>
          | false;
        const user = identifier && identifier.type === 'm.id.user' ? identifier.user : b.user;
        return passwordLogin(
          hs,
          requireString(user, 'identifier.user'),
          requireString(b.password, 'password'),
          deviceId,
        );
      }
      if (b.type === 'm.login.token') return tokenLogin(hs, requireString(b.token, 'token'), deviceId);
      if (b.type === undefined) throw new MatrixError(400, 'M_MISSING_PARAM', 'Missing parameter: type');
      throw new MatrixError(400, 'M_UNKNOWN', 'Unknown login type');
    });
    app.post('/client/v1/login/get_token', async (req) => {
      const s = await auth(hs, req);
      return createLoginToken(hs, s.userId);
    });
    // Accounts are created by the product (shared-secret admin API), like Synapse with
    // enable_registration: false.
    app.post('/client/v3/register', async () => {
      throw mxForbidden('Registration has been disabled');
    });
    app.get('/client/v3/register/available', async () => {
      throw mxForbidden('Registration has been disabled');
    });
    app.post('/client/v3/logout', async (req) => {
      await logout(hs, await auth(hs, req), false);
      return {};
    });
    app.post('/client/v3/logout/all', async (req) => {
      await logout(hs, await auth(hs, req), true);
      return {};
    });
    app.get('/client/v3/account/whoami', async (req) => {
      const s = await auth(hs, req);
      return { user_id: s.userId, device_id: s.deviceId, is_guest: false };
    });
  };

/** POST body of /_synapse/admin/v1/register and its HMAC (Synapse's algorithm). */
export function registrationMac(
  secret: string,
  nonce: string,
  user: string,
  password: string,
  admin: boolean,
): string {
  return createHmac('sha1', secret)
    .update(`${nonce}\0${user}\0${password}\0${admin ? 'admin' : 'notadmin'}`)
    .digest('hex');
}

export const adminRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    app.get('/_synapse/admin/v1/register', async () => {
      const now = hs.now();
      for (const [n, exp] of hs.nonces) if (exp < now) hs.nonces.delete(n);
      const nonce = randomBytes(16).toString('hex');
      hs.nonces.set(nonce, now + 60_000);
      return { nonce };
    });
    app.post('/_synapse/admin/v1/register', async (req) => {
      const b = body(req);
      const nonce = requireString(b.nonce, 'nonce');
      const username = requireString(b.username, 'username');
      const password = requireString(b.password, 'password');
      const mac = requireString(b.mac, 'mac');
      const admin = b.admin === true;
      const expiry = hs.nonces.get(nonce);
      if (expiry === undefined || expiry < hs.now())
        throw new MatrixError(400, 'M_UNKNOWN', 'unrecognised nonce');
      hs.nonces.delete(nonce);
      if (!sameSecret(mac, registrationMac(hs.sharedSecret, nonce, username, password, admin)))
        throw mxForbidden('HMAC incorrect');
      const userId = await createUser(hs, username, password, {
        admin,
        displayname: typeof b.displayname === 'string' ? b.displayname : undefined,
      });
      return issueToken(hs, userId);
    });
    app.post('/_synapse/admin/v1/reset_password/:userId', async (req) => {
      const s = await auth(hs, req);
      if (!(await isAdmin(hs, s.userId))) throw mxForbidden('You are not a server admin');
      const b = body(req);
      await setPassword(
        hs,
        (req.params as { userId: string }).userId,
        requireString(b.new_password, 'new_password'),
      );
      return {};
    });
    // Synapse's admin device API (synapse/rest/admin/devices.py): the product revokes a user's
    // chat tokens by listing and deleting their devices. 404 "Unknown user" as Synapse's servlets.
    const knownUser = async (req: FastifyRequest) => {
      const s = await auth(hs, req);
      if (!(await isAdmin(hs, s.userId))) throw mxForbidden('You are not a server admin');
      const userId = (req.params as { userId: string }).userId;
      if (!(await userExists(hs, userId))) throw mxNotFound('Unknown user');
      return userId;
    };
    app.get('/_synapse/admin/v2/users/:userId/devices', async (req) => {
      const userId = await knownUser(req);
      const devices = (await devicesOf(hs, userId)).map((id) => ({
        device_id: id,
        user_id: userId,
        display_name: null,
        last_seen_ip: null,
        last_seen_ts: null,
      }));
      return { devices, total: devices.length };
    });
    app.post('/_synapse/admin/v2/users/:userId/delete_devices', async (req) => {
      const userId = await knownUser(req);
      const b = body(req);
      if (b.devices === undefined) throw mxMissingParam('devices');
      if (!Array.isArray(b.devices) || !b.devices.every((d) => typeof d === 'string'))
        throw mxBadJson('devices must be a list of strings');
      await deleteDevices(hs, userId, b.devices as string[]);
      return {};
    });
    // Synapse's deactivation (the product deletes an account): logins and tokens end, every room is left.
    app.post('/_synapse/admin/v1/deactivate/:userId', async (req) => {
      const s = await auth(hs, req);
      if (!(await isAdmin(hs, s.userId))) throw mxForbidden('You are not a server admin');
      body(req);
      const userId = (req.params as { userId: string }).userId;
      await deactivateUser(hs, userId);
      for (const m of await roomsOf(hs, userId)) {
        if (m.membership === 'join' || m.membership === 'invite')
          await leaveRoom(hs, { userId, deviceId: '', tokenHash: '' }, m.roomId);
      }
      return { id_server_unbind_result: 'success' };
    });
  };
