/** Builds MATCH_STATE (docs/contract.md §3 "Match") and list summaries from stored rows. */
import type {
  MatchConnect,
  MatchPlayer,
  MatchState,
  MatchSummary,
  PlayerStats,
  TeamKey,
} from '@openpug/shared';
import type { matches, matchPlayers } from './schema';

export type MatchRow = typeof matches.$inferSelect;
export type PlayerRow = typeof matchPlayers.$inferSelect;

/** On a team and not replaced by a substitute (a replaced leaver's row stays for the result). */
export const isRostered = (p: PlayerRow) => p.team !== null && p.replacedAt === null;

/** What a team line and a summary read of a player's row (the match lists read no more). */
export type RosterRow = Pick<
  PlayerRow,
  | 'userId'
  | 'name'
  | 'avatar'
  | 'elo'
  | 'steamId'
  | 'reliability'
  | 'team'
  | 'pickNo'
  | 'captain'
  | 'replacedAt'
>;
/** What a summary reads of a match row. */
export type SummaryMatchRow = Pick<
  MatchRow,
  | 'id'
  | 'status'
  | 'createdAt'
  | 'finishedAt'
  | 'mapKey'
  | 'mapName'
  | 'scoreOne'
  | 'scoreTwo'
  | 'winner'
  | 'teamOneName'
  | 'teamTwoName'
>;

export function toPlayer(p: RosterRow): MatchPlayer {
  return {
    _id: p.userId,
    name: p.name,
    avatar: p.avatar,
    elo: p.elo,
    ...(p.steamId ? { steamId: p.steamId } : {}),
    reliability: p.reliability,
  };
}

function team(m: Pick<MatchRow, 'teamOneName' | 'teamTwoName'>, players: readonly RosterRow[], key: TeamKey) {
  const members = players
    .filter((p) => p.team === key && p.replacedAt === null)
    .sort((a, b) => (a.pickNo ?? 0) - (b.pickNo ?? 0));
  const captain = members.find((p) => p.captain) ?? members[0];
  return {
    name: key === 'teamOne' ? m.teamOneName : m.teamTwoName,
    captain: toPlayer(captain),
    players: members.map(toPlayer),
  };
}

export function toStats(players: readonly PlayerRow[]): PlayerStats[] {
  return players
    .filter((p) => p.team !== null)
    .map((p) => ({
      userId: p.userId,
      name: p.name,
      team: p.team as TeamKey,
      kills: p.kills,
      deaths: p.deaths,
      assists: p.assists,
      damage: p.damage,
      headshots: p.headshots,
      eloBefore: p.eloBefore,
      eloAfter: p.eloAfter,
    }))
    .sort((a, b) => b.kills - a.kills || a.deaths - b.deaths);
}

/**
 * `participant` decides whether `server.connect` is included (spectators get only GOTV); `connect`
 * is who is on the game server while the match waits for its players, `live` the leavers and their
 * substitute offer once it runs (presence.ts).
 */
export function buildState(
  m: MatchRow,
  players: readonly PlayerRow[],
  participant: boolean,
  connect: MatchConnect | null = null,
  live: Pick<MatchState, 'leavers' | 'substituteOffer'> = { leavers: [], substituteOffer: null },
): MatchState {
  return {
    _id: m.id,
    status: m.status,
    createdAt: m.createdAt,
    teamOne: team(m, players, 'teamOne'),
    teamTwo: team(m, players, 'teamTwo'),
    pool: players
      .filter((p) => p.team === null)
      .sort((a, b) => b.elo - a.elo)
      .map(toPlayer),
    turn: m.turn,
    // An active match's stored deadline is the connect / substitute one: it is `connect.deadline`.
    deadline: m.status === 'active' ? null : m.deadline,
    mapVeto: { pool: m.mapPool, bans: m.bans },
    map: m.mapKey ? { key: m.mapKey, name: m.mapName ?? m.mapKey } : null,
    server: m.serverGotv
      ? { gotv: m.serverGotv, ...(participant && m.serverConnect ? { connect: m.serverConnect } : {}) }
      : null,
    score: { teamOne: m.scoreOne, teamTwo: m.scoreTwo },
    stats: toStats(players),
    winner: m.winner,
    cancelReason: m.cancelReason,
    connect,
    leavers: live.leavers ?? [],
    substituteOffer: live.substituteOffer ?? null,
  };
}

export function buildSummary(m: SummaryMatchRow, players: readonly RosterRow[]): MatchSummary {
  return {
    _id: m.id,
    status: m.status,
    createdAt: m.createdAt,
    finishedAt: m.finishedAt,
    map: m.mapKey ? { key: m.mapKey, name: m.mapName ?? m.mapKey } : null,
    score: { teamOne: m.scoreOne, teamTwo: m.scoreTwo },
    winner: m.winner,
    teamOne: team(m, players, 'teamOne'),
    teamTwo: team(m, players, 'teamTwo'),
  };
}
