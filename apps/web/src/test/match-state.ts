/**
 * A match in the room as the server sends it (`MatchState`), for component tests: live, ten
 * players (captains c1 and c2), nothing else set; a test overrides what it is about.
 */
import type { MatchPlayer, MatchState } from '@openpug/shared';

export const testPlayer = (id: string): MatchPlayer => ({
  _id: id,
  name: `name-${id}`,
  avatar: null,
  elo: 200,
});
const team = (ids: string[]) => ({
  name: `Team ${ids[0]}`,
  captain: testPlayer(ids[0]),
  players: ids.map(testPlayer),
});

export function liveMatchState(over: Partial<MatchState> = {}): MatchState {
  return {
    _id: 'm1',
    status: 'active',
    createdAt: 0,
    teamOne: team(['c1', 'a', 'b', 'c', 'd']),
    teamTwo: team(['c2', 'e', 'f', 'g', 'h']),
    pool: [],
    turn: null,
    deadline: null,
    mapVeto: { pool: [], bans: [] },
    map: null,
    server: null,
    score: { teamOne: 0, teamTwo: 0 },
    stats: [],
    winner: null,
    cancelReason: null,
    connect: null,
    ...over,
  };
}
