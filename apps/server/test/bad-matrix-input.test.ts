/**
 * Hostile calls on the embedded homeserver's most used endpoints (createRoom, send, redact, state,
 * typing, receipts, read markers, tags, profile, filters, sync, messages): wrong types, bad JSON,
 * absurd ids. Each must answer Matrix error JSON (`errcode`) with a 4xx, never a 500. The full
 * protocol behaviour is the conformance suite's (test/matrix); this only hunts crashes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixSessionFor } from '../src/modules/chat/service';
import { createTestApp, createTestUser, type TestApp } from './helpers';

const enc = encodeURIComponent;
const HUGE = 'x'.repeat(70_000);

/** Bodies of the wrong shape for any JSON-object endpoint. */
const WRONG_BODIES: Array<[string, string]> = [
  ['malformed JSON', '{"a":'],
  ['array', '[1,2]'],
  ['string', '"text"'],
  ['number', '42'],
  ['NUL string', '{"body":"a\\u0000b","msgtype":"m.text"}'],
  ['deeply nested', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
  ['nested past the limit', `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`],
];

let t: TestApp;
let token: string;
let userId: string;
let roomId: string;
let eventId: string;

async function mx(method: string, url: string, payload?: string | object) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload:
      typeof payload === 'string' ? payload : payload === undefined ? undefined : JSON.stringify(payload),
  });
  return res;
}

beforeAll(async () => {
  t = await createTestApp();
  const user = await createTestUser(t.app);
  await t.app.ctx.bus.emit('user.created', { userId: user.id });
  const session = await matrixSessionFor(t.app.ctx, user.id);
  token = session.accessToken;
  userId = session.userId;
  roomId = (await mx('POST', '/_matrix/client/v3/createRoom', { name: 'sweep' })).json().room_id;
  const sent = await mx('PUT', `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/t0`, {
    msgtype: 'm.text',
    body: 'hello',
  });
  eventId = sent.json().event_id;
});
afterAll(() => t.close());

describe('homeserver under hostile input', () => {
  it('refuses a NUL character as bad JSON and stores nothing', async () => {
    const res = await mx('PUT', `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/nul`, {
      msgtype: 'm.text',
      body: 'a\u0000b',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errcode: 'M_BAD_JSON' });
  });

  it('answers errcode JSON, never a 500', async () => {
    expect(roomId).toMatch(/^!/);
    expect(eventId).toMatch(/^\$/);
    const room = `/_matrix/client/v3/rooms/${enc(roomId)}`;
    const me = `/_matrix/client/v3/user/${enc(userId)}`;
    const calls: Array<[string, string, (string | object)[]]> = [
      [
        'POST',
        '/_matrix/client/v3/createRoom',
        [
          { name: 42 },
          { topic: [] },
          { preset: {} },
          { visibility: 5 },
          { invite: 'x' },
          { invite: [1, null] },
          { invite: ['@nobody:nowhere'] },
          { is_direct: 'yes' },
          { room_alias_name: {} },
          { room_alias_name: 'a b/c' },
          { initial_state: 'x' },
          { initial_state: [1] },
          { initial_state: [{ type: 5, content: 'x' }] },
          { creation_content: [] },
          { power_level_content_override: 'x' },
          { power_level_content_override: { users: 'x', events: [] } },
          { name: HUGE },
        ],
      ],
      [
        'PUT',
        `${room}/send/m.room.message/t1`,
        [
          { body: 42, msgtype: [] },
          { msgtype: {} },
          { 'm.relates_to': 'x' },
          { 'm.relates_to': { rel_type: 5, event_id: [] } },
          { body: HUGE, msgtype: 'm.text' },
        ],
      ],
      ['PUT', `${room}/send/${'t'.repeat(190)}/t2`, [{ body: 'x' }]],
      ['PUT', `${room}/redact/${enc(eventId)}/r1`, [{ reason: 5 }, { reason: HUGE }]],
      ['PUT', `${room}/redact/${enc('$nope')}/r2`, [{}]],
      ['PUT', `${room}/redact/not-an-event/r3`, [{}]],
      ['PUT', `${room}/state/m.room.name`, [{ name: 5 }, { name: [] }]],
      [
        'PUT',
        `${room}/state/m.room.power_levels`,
        [{ users: 'x' }, { users: { [userId]: 'high' } }, { events: [] }],
      ],
      [
        'PUT',
        `${room}/state/m.room.member/${enc('@nobody:nowhere')}`,
        [{ membership: 5 }, { membership: 'ban' }],
      ],
      ['PUT', `${room}/state/m.room.join_rules`, [{ join_rule: [] }]],
      [
        'PUT',
        `${room}/typing/${enc(userId)}`,
        [{ typing: 'yes' }, { typing: true, timeout: 'x' }, { typing: true, timeout: -1 }, {}],
      ],
      ['PUT', `${room}/typing/${enc('@other:nowhere')}`, [{ typing: true }]],
      ['POST', `${room}/receipt/m.read/${enc(eventId)}`, [{ thread_id: 5 }]],
      ['POST', `${room}/receipt/m.nope/${enc(eventId)}`, [{}]],
      ['POST', `${room}/receipt/m.read/${enc('$nope')}`, [{}]],
      ['POST', `${room}/receipt/m.read/not-an-event`, [{}]],
      ['POST', `${room}/read_markers`, [{ 'm.fully_read': 5 }, { 'm.read': '$nope' }, { 'm.read': [] }]],
      [
        'PUT',
        `${me}/rooms/${enc(roomId)}/tags/u.fav`,
        [{ order: 'x' }, { order: [] }, { order: 1, extra: HUGE }],
      ],
      ['PUT', `${me}/rooms/${enc(roomId)}/tags/${'t'.repeat(190)}`, [{ order: 0.5 }]],
      ['PUT', `${me}/rooms/${enc('!nope:nowhere')}/tags/u.fav`, [{ order: 0.5 }]],
      ['PUT', `${me}/account_data/m.direct`, [{ '@x:y': 'not-a-list' }]],
      [
        'PUT',
        `/_matrix/client/v3/profile/${enc(userId)}/displayname`,
        [{ displayname: 5 }, { displayname: HUGE }],
      ],
      [
        'PUT',
        `/_matrix/client/v3/profile/${enc(userId)}/avatar_url`,
        [{ avatar_url: [] }, { avatar_url: 'http://x' }],
      ],
      [
        'POST',
        `${me}/filter`,
        [{ room: 'x' }, { room: { timeline: { limit: 'ten' } } }, { event_fields: 5 }],
      ],
      ['POST', `/_matrix/client/v3/join/${enc('#nope:nowhere')}`, [{}]],
      ['POST', '/_matrix/client/v3/join/not-a-room', [{}]],
      ['POST', `${room}/invite`, [{ user_id: 5 }, {}, { user_id: 'not-a-user' }]],
    ];
    const failures: string[] = [];
    const checkAnswer = (label: string, res: Awaited<ReturnType<typeof mx>>) => {
      if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400) {
        let errcode: unknown;
        try {
          errcode = res.json().errcode;
        } catch {
          errcode = undefined;
        }
        if (typeof errcode !== 'string' || !errcode.startsWith('M_'))
          failures.push(`${label}: ${res.statusCode} without an errcode: ${res.body.slice(0, 200)}`);
      }
    };
    for (const [method, url, bodies] of calls) {
      for (const body of bodies)
        checkAnswer(`${method} ${url} ${JSON.stringify(body).slice(0, 80)}`, await mx(method, url, body));
      for (const [label, raw] of WRONG_BODIES) {
        const res = await mx(method, url, raw);
        checkAnswer(`${method} ${url} ${label}`, res);
        if (res.statusCode < 400) failures.push(`${method} ${url} ${label}: accepted with ${res.statusCode}`);
      }
    }
    for (const url of [
      `${room}/messages?dir=x&limit=abc&from=garbage`,
      `${room}/messages?dir=b&limit=-5&from=s-1`,
      `${room}/messages?dir=b&limit=99999999999999999999`,
      `${room}/messages?dir=b&filter=%7Bnot-json`,
      `${room}/messages?dir=b&filter=%7B%22types%22%3A5%7D`,
      '/_matrix/client/v3/sync?since=garbage&timeout=0',
      '/_matrix/client/v3/sync?timeout=abc',
      '/_matrix/client/v3/sync?filter=%7Bnot-json&timeout=0',
      '/_matrix/client/v3/sync?filter=99999&timeout=0',
      '/_matrix/client/v3/sync?timeout=0&set_presence=%00',
      `${room}/event/${enc('$nope')}`,
      `${room}/context/${enc(eventId)}?limit=abc`,
      `${me}/filter/${'9'.repeat(30)}`,
      '/_matrix/client/v3/rooms/not-a-room/state',
      '/_matrix/client/v3/directory/room/not-an-alias',
    ])
      checkAnswer(`GET ${url}`, await mx('GET', url));
    expect(failures).toEqual([]);
    // The homeserver still works for the caller.
    const ok = await mx('PUT', `${room}/send/m.room.message/t-after`, {
      msgtype: 'm.text',
      body: 'still here',
    });
    expect(ok.statusCode).toBe(200);
  });
});
