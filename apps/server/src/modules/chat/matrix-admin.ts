/**
 * A small Matrix Client-Server client for the product's server side, used for Synapse and for the
 * embedded homeserver through the same calls: shared-secret registration
 * (/_synapse/admin/v1/register: nonce, then HMAC-SHA1 over nonce\0user\0password\0admin|notadmin),
 * password login, whoami, room creation, joins, invites, alias lookups, room state (power levels)
 * and password resets.
 * Only the transport differs: HTTP fetch to MATRIX_HOMESERVER_URL, or in-process requests
 * (Fastify inject) to the embedded homeserver.
 */
import { createHmac } from 'node:crypto';

export interface MatrixResponse {
  status: number;
  json: Record<string, unknown>;
}
export type Transport = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) => Promise<MatrixResponse>;

export class MatrixCallError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
  ) {
    super(`${status} ${errcode}: ${message}`);
  }
}

export interface MatrixLogin {
  userId: string;
  accessToken: string;
  deviceId: string;
}

export function fetchTransport(baseUrl: string): Transport {
  const base = baseUrl.replace(/\/$/, '');
  return async (method, path, body, token) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { errcode: 'M_UNKNOWN', error: text.slice(0, 200) };
    }
    return { status: res.status, json };
  };
}

const enc = encodeURIComponent;

export class MatrixAdmin {
  constructor(
    private readonly transport: Transport,
    private readonly sharedSecret: string,
  ) {}

  private async call(method: string, path: string, body?: unknown, token?: string) {
    const res = await this.transport(method, path, body, token);
    if (res.status >= 400) {
      throw new MatrixCallError(
        res.status,
        String(res.json.errcode ?? 'M_UNKNOWN'),
        String(res.json.error ?? ''),
      );
    }
    return res.json;
  }

  async register(
    username: string,
    password: string,
    opts: { admin?: boolean; displayname?: string } = {},
  ): Promise<MatrixLogin> {
    const { nonce } = (await this.call('GET', '/_synapse/admin/v1/register')) as { nonce: string };
    const admin = opts.admin ?? false;
    const mac = createHmac('sha1', this.sharedSecret)
      .update(`${nonce}\0${username}\0${password}\0${admin ? 'admin' : 'notadmin'}`)
      .digest('hex');
    const r = await this.call('POST', '/_synapse/admin/v1/register', {
      nonce,
      username,
      password,
      admin,
      mac,
      ...(opts.displayname ? { displayname: opts.displayname } : {}),
    });
    return { userId: String(r.user_id), accessToken: String(r.access_token), deviceId: String(r.device_id) };
  }

  async login(userId: string, password: string): Promise<MatrixLogin> {
    const r = await this.call('POST', '/_matrix/client/v3/login', {
      type: 'm.login.password',
      identifier: { type: 'm.id.user', user: userId },
      password,
      initial_device_display_name: 'openpug',
    });
    return { userId: String(r.user_id), accessToken: String(r.access_token), deviceId: String(r.device_id) };
  }

  /** True when the token is still valid. */
  async whoami(token: string): Promise<boolean> {
    const res = await this.transport('GET', '/_matrix/client/v3/account/whoami', undefined, token);
    return res.status === 200;
  }

  async createRoom(token: string, body: Record<string, unknown>): Promise<string> {
    return String((await this.call('POST', '/_matrix/client/v3/createRoom', body, token)).room_id);
  }

  async join(token: string, roomIdOrAlias: string): Promise<string> {
    return String(
      (await this.call('POST', `/_matrix/client/v3/join/${enc(roomIdOrAlias)}`, {}, token)).room_id,
    );
  }

  async invite(token: string, roomId: string, userId: string): Promise<void> {
    await this.call('POST', `/_matrix/client/v3/rooms/${enc(roomId)}/invite`, { user_id: userId }, token);
  }

  async resolveAlias(alias: string, token: string): Promise<string | null> {
    const res = await this.transport(
      'GET',
      `/_matrix/client/v3/directory/room/${enc(alias)}`,
      undefined,
      token,
    );
    return res.status === 200 ? String(res.json.room_id) : null;
  }

  async setDisplayName(token: string, userId: string, name: string): Promise<void> {
    await this.call(
      'PUT',
      `/_matrix/client/v3/profile/${enc(userId)}/displayname`,
      { displayname: name },
      token,
    );
  }

  /** A room's state event content (the caller must be able to read the room). */
  async getState(
    token: string,
    roomId: string,
    type: string,
    stateKey = '',
  ): Promise<Record<string, unknown>> {
    return this.call(
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/state/${enc(type)}/${enc(stateKey)}`,
      undefined,
      token,
    );
  }

  async putState(
    token: string,
    roomId: string,
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
  ): Promise<void> {
    await this.call(
      'PUT',
      `/_matrix/client/v3/rooms/${enc(roomId)}/state/${enc(type)}/${enc(stateKey)}`,
      content,
      token,
    );
  }

  /** Synapse admin API (the embedded homeserver implements it too): new password, old sessions out. */
  async resetPassword(adminToken: string, userId: string, password: string): Promise<void> {
    await this.call(
      'POST',
      `/_synapse/admin/v1/reset_password/${enc(userId)}`,
      { new_password: password, logout_devices: false },
      adminToken,
    );
  }

  async joinedRooms(token: string): Promise<string[]> {
    const r = await this.call('GET', '/_matrix/client/v3/joined_rooms', undefined, token);
    return Array.isArray(r.joined_rooms) ? r.joined_rooms.map(String) : [];
  }

  /**
   * The `m.room.message` events `sender` sent in a room that are not redacted, newest first, read
   * with a token that can see them (/messages backwards, at most `maxPages` pages).
   */
  async messagesBy(token: string, roomId: string, sender: string, maxPages = 200): Promise<SentEvent[]> {
    const filter = enc(JSON.stringify({ senders: [sender], types: ['m.room.message'] }));
    const out: SentEvent[] = [];
    let from: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const r = await this.call(
        'GET',
        `/_matrix/client/v3/rooms/${enc(roomId)}/messages?dir=b&limit=500&filter=${filter}${from ? `&from=${enc(from)}` : ''}`,
        undefined,
        token,
      );
      for (const e of Array.isArray(r.chunk) ? (r.chunk as Record<string, unknown>[]) : []) {
        const content = (e.content ?? {}) as Record<string, unknown>;
        if (e.sender !== sender || e.type !== 'm.room.message' || Object.keys(content).length === 0) continue;
        out.push({
          roomId,
          eventId: String(e.event_id),
          ts: Number(e.origin_server_ts),
          type: String(e.type),
          content,
        });
      }
      const end = typeof r.end === 'string' ? r.end : undefined;
      if (!end || end === from) break;
      from = end;
    }
    return out;
  }

  async redact(token: string, roomId: string, eventId: string, txnId: string): Promise<void> {
    await this.call(
      'PUT',
      `/_matrix/client/v3/rooms/${enc(roomId)}/redact/${enc(eventId)}/${enc(txnId)}`,
      {},
      token,
    );
  }

  /**
   * Synapse admin API: the user's devices (GET /_synapse/admin/v2/users/<user_id>/devices,
   * synapse/rest/admin/devices.py DevicesRestServlet.on_GET: `{devices: [{device_id, …}], total}`).
   */
  async devices(adminToken: string, userId: string): Promise<string[]> {
    const r = await this.call(
      'GET',
      `/_synapse/admin/v2/users/${enc(userId)}/devices`,
      undefined,
      adminToken,
    );
    return Array.isArray(r.devices) ? r.devices.map((d: { device_id?: unknown }) => String(d.device_id)) : [];
  }

  /**
   * Synapse admin API: deletes the devices and with them their access tokens
   * (POST /_synapse/admin/v2/users/<user_id>/delete_devices {devices}, devices.py
   * DeleteDevicesRestServlet; handlers/device.py delete_devices → delete_access_tokens_for_devices).
   * The password stays: the product logs in again for the next session.
   */
  async deleteDevices(adminToken: string, userId: string, deviceIds: string[]): Promise<void> {
    await this.call(
      'POST',
      `/_synapse/admin/v2/users/${enc(userId)}/delete_devices`,
      { devices: deviceIds },
      adminToken,
    );
  }

  /**
   * POST /rooms/{roomId}/kick | ban | unban {user_id, reason?} (C-S spec "Room membership"; needs
   * the kick or ban power level and, for kick and ban, a level above the target's).
   */
  async membership(
    token: string,
    roomId: string,
    action: 'kick' | 'ban' | 'unban',
    userId: string,
    reason?: string,
  ): Promise<void> {
    await this.call(
      'POST',
      `/_matrix/client/v3/rooms/${enc(roomId)}/${action}`,
      { user_id: userId, ...(reason ? { reason } : {}) },
      token,
    );
  }

  /** The user's membership in the room as the caller reads it (`null`: never a member). */
  async membershipOf(token: string, roomId: string, userId: string): Promise<string | null> {
    const res = await this.transport(
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/state/m.room.member/${enc(userId)}`,
      undefined,
      token,
    );
    if (res.status === 404) return null;
    if (res.status >= 400)
      throw new MatrixCallError(
        res.status,
        String(res.json.errcode ?? 'M_UNKNOWN'),
        String(res.json.error ?? ''),
      );
    return String(res.json.membership ?? '');
  }

  /** An event of the room as the caller reads it, or null when there is none (or it is unreadable). */
  async event(token: string, roomId: string, eventId: string): Promise<{ sender: string } | null> {
    const res = await this.transport(
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/event/${enc(eventId)}`,
      undefined,
      token,
    );
    return res.status === 200 ? { sender: String(res.json.sender) } : null;
  }

  async redactWithReason(token: string, roomId: string, eventId: string, txnId: string, reason?: string) {
    await this.call(
      'PUT',
      `/_matrix/client/v3/rooms/${enc(roomId)}/redact/${enc(eventId)}/${enc(txnId)}`,
      reason ? { reason } : {},
      token,
    );
  }

  /** Synapse admin API (the embedded homeserver implements it too): no more logins, rooms left. */
  async deactivate(adminToken: string, userId: string): Promise<void> {
    await this.call('POST', `/_synapse/admin/v1/deactivate/${enc(userId)}`, { erase: true }, adminToken);
  }
}

/** A message event as `messagesBy` answers it. */
export interface SentEvent {
  roomId: string;
  eventId: string;
  ts: number;
  type: string;
  content: Record<string, unknown>;
}
