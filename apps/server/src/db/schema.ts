/**
 * The one Drizzle schema for PGlite and PostgreSQL. Each feature keeps its tables in its module
 * (modules/<feature>/schema.ts); this file gathers them for drizzle-kit and the client.
 */

export * from '../homeserver/schema';
export * from '../jobs/schema';
export * from '../modules/about/schema';
export * from '../modules/accounts/schema';
export * from '../modules/arena/schema';
export * from '../modules/chat/schema';
export * from '../modules/discord/schema';
export * from '../modules/drops/schema';
export * from '../modules/friends/schema';
export * from '../modules/gameservers/schema';
export * from '../modules/insights/schema';
export * from '../modules/mail/schema';
export * from '../modules/matches/schema';
export * from '../modules/mobile/schema';
export * from '../modules/moderation/schema';
export * from '../modules/presence/schema';
export * from '../modules/queue/schema';
export * from '../modules/queue-alerts/schema';
export * from '../modules/ranking/schema';
export * from '../modules/reports/schema';
export * from '../modules/steam/schema';
export * from '../modules/voice/schema';
export * from '../modules/whatsapp/schema';
