/**
 * Who may do what in a match room. The server decides; the UI mirrors it so only the captain on
 * turn gets clickable players and maps, and everybody else sees whose turn it is.
 */
import type { MatchState, Role, TeamKey } from '@openpug/shared';

export const TEAM_SIZE = 5;

/** The team `userId` plays for (the pool counts as no team yet), or null. */
export function teamOf(state: MatchState, userId: string | null | undefined): TeamKey | null {
  if (!userId) return null;
  if (state.teamOne.players.some((p) => p._id === userId)) return 'teamOne';
  if (state.teamTwo.players.some((p) => p._id === userId)) return 'teamTwo';
  return null;
}

/** One of the ten (picked, captain or still in the pool). */
export function isParticipant(state: MatchState, userId: string | null | undefined): boolean {
  return Boolean(userId) && (teamOf(state, userId) !== null || state.pool.some((p) => p._id === userId));
}

/** The captain whose turn it is, when it is `userId`. */
export function isCaptainOnTurn(state: MatchState, userId: string | null | undefined): boolean {
  return Boolean(userId) && state.turn !== null && state[state.turn].captain._id === userId;
}

export function canPick(state: MatchState, userId: string | null | undefined, pickedId?: string): boolean {
  if (state.status !== 'playerveto' || !isCaptainOnTurn(state, userId)) return false;
  return pickedId === undefined || state.pool.some((p) => p._id === pickedId);
}

export function bannedBy(state: MatchState, mapKey: string): TeamKey | null {
  return state.mapVeto.bans.find((b) => b.mapKey === mapKey)?.team ?? null;
}

export function canBan(state: MatchState, userId: string | null | undefined, mapKey?: string): boolean {
  if (state.status !== 'mapveto' || !isCaptainOnTurn(state, userId)) return false;
  if (mapKey === undefined) return true;
  return state.mapVeto.pool.some((m) => m.key === mapKey) && bannedBy(state, mapKey) === null;
}

/** Participants may call an admin while the match is not over. */
export function canAskForHelp(state: MatchState, userId: string | null | undefined): boolean {
  return isParticipant(state, userId) && state.status !== 'finished' && state.status !== 'cancelled';
}

/** Admins may end a match that is not over yet (POST /api/admin/matches/:id/cancel). */
export function canCancelMatch(state: Pick<MatchState, 'status'>, role: Role | null | undefined): boolean {
  return role === 'ADMIN' && state.status !== 'finished' && state.status !== 'cancelled';
}

export type MatchTool = 'move' | 'swap' | 'result' | 'correct' | 'void';

/**
 * The admin match tools a match's phase allows (admin/match-tools.ts on the server): swap while it
 * is not over; move (once it has a server) and force a result while active; correct and void once
 * finished. None for players.
 */
export function matchToolsFor(
  state: Pick<MatchState, 'status' | 'server'>,
  role: Role | null | undefined,
): MatchTool[] {
  if (role !== 'ADMIN') return [];
  switch (state.status) {
    case 'playerveto':
    case 'mapveto':
      return ['swap'];
    case 'active':
      return state.server ? ['move', 'swap', 'result'] : ['swap', 'result'];
    case 'finished':
      return ['correct', 'void'];
    default:
      return [];
  }
}

/** Stats sorted by kills (then fewer deaths), for the scoreboard. */
export function sortedStats(state: Pick<MatchState, 'stats'>, team?: TeamKey) {
  return state.stats
    .filter((s) => team === undefined || s.team === team)
    .sort((a, b) => b.kills - a.kills || a.deaths - b.deaths || b.assists - a.assists);
}
