// The arena module's leaf entry: the arena servers' configuration (ARENA_SERVERS), which config.ts
// parses before any module exists.
export { type ArenaSeed, parseArenaServers } from './seed';
