/**
 * Tables of the embedded Matrix homeserver (prefix `mx_`). Every stream-ordered row (events,
 * receipts, account data) carries a `stream` position from one in-process counter, which is what
 * sync tokens and pagination tokens point into. Media bytes live in `mx_media` (bytea), so the
 * database alone holds everything and a restart loses nothing.
 */
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

type Json = Record<string, unknown>;

export const mxUsers = pgTable('mx_users', {
  userId: text('user_id').primaryKey(),
  passwordHash: text('password_hash').notNull(),
  admin: boolean('admin').notNull().default(false),
  displayname: text('displayname'),
  avatarUrl: text('avatar_url'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

/** Access tokens are stored as SHA-256 hashes; one row per device session. */
export const mxAccessTokens = pgTable(
  'mx_access_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull(),
    deviceId: text('device_id').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('mx_access_tokens_user_idx').on(t.userId)],
);

/** Short-lived single-use m.login.token tokens. */
export const mxLoginTokens = pgTable('mx_login_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id').notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
});

export const mxRooms = pgTable('mx_rooms', {
  roomId: text('room_id').primaryKey(),
  creator: text('creator').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const mxEvents = pgTable(
  'mx_events',
  {
    stream: bigint('stream', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull().unique(),
    roomId: text('room_id').notNull(),
    type: text('type').notNull(),
    stateKey: text('state_key'),
    sender: text('sender').notNull(),
    content: jsonb('content').$type<Json>().notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    /** Transaction id and the device that sent it: idempotency and unsigned.transaction_id. */
    txnId: text('txn_id'),
    txnDevice: text('txn_device'),
    /** m.room.redaction: the event it redacts (a top-level key in room version 10). */
    redacts: text('redacts'),
    /**
     * Set once the event is redacted: the redaction event (served as unsigned.redacted_because);
     * `content` then holds only what the redaction algorithm keeps, the rest is gone.
     */
    redactedBecause: jsonb('redacted_because').$type<Json>(),
  },
  (t) => [
    index('mx_events_room_stream_idx').on(t.roomId, t.stream),
    index('mx_events_txn_idx').on(t.sender, t.txnId),
  ],
);

/** Current state of each room; `membership` is set for m.room.member rows. */
export const mxRoomState = pgTable(
  'mx_room_state',
  {
    roomId: text('room_id').notNull(),
    type: text('type').notNull(),
    stateKey: text('state_key').notNull(),
    eventId: text('event_id').notNull(),
    stream: bigint('stream', { mode: 'number' }).notNull(),
    membership: text('membership'),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.type, t.stateKey] }),
    index('mx_room_state_member_idx').on(t.stateKey, t.membership),
  ],
);

export const mxAliases = pgTable('mx_aliases', {
  alias: text('alias').primaryKey(),
  roomId: text('room_id').notNull(),
  creator: text('creator').notNull(),
});

export const mxReceipts = pgTable(
  'mx_receipts',
  {
    roomId: text('room_id').notNull(),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    eventId: text('event_id').notNull(),
    ts: bigint('ts', { mode: 'number' }).notNull(),
    stream: bigint('stream', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roomId, t.userId, t.type] }),
    index('mx_receipts_stream_idx').on(t.stream),
  ],
);

/** Global (`room_id` = '') and per-room account data, including m.tag, m.fully_read, m.direct. */
export const mxAccountData = pgTable(
  'mx_account_data',
  {
    userId: text('user_id').notNull(),
    roomId: text('room_id').notNull(),
    type: text('type').notNull(),
    content: jsonb('content').$type<Json>().notNull(),
    stream: bigint('stream', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roomId, t.type] })],
);

export const mxFilters = pgTable('mx_filters', {
  id: serial('id').primaryKey(),
  userId: text('user_id').notNull(),
  filter: jsonb('filter').$type<Json>().notNull(),
});

export const mxMedia = pgTable('mx_media', {
  mediaId: text('media_id').primaryKey(),
  userId: text('user_id').notNull(),
  contentType: text('content_type').notNull(),
  filename: text('filename'),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const mxThumbnails = pgTable(
  'mx_thumbnails',
  {
    mediaId: text('media_id').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    method: text('method').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.width, t.height, t.method] })],
);
