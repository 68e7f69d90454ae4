import type { MatchPlayer, MatchState } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import { liveMatchState } from '../../test/match-state';
import {
  bannedBy,
  canAskForHelp,
  canBan,
  canCancelMatch,
  canPick,
  isParticipant,
  matchToolsFor,
  sortedStats,
  teamOf,
} from './permissions';

const p = (id: string, elo = 200): MatchPlayer => ({ _id: id, name: id, avatar: null, elo });
const maps = ['de_ancient', 'de_anubis', 'de_dust2'].map((key) => ({ key, name: key }));

/** A draft with team two on turn: one pick each so far, two players in the pool. */
const state = (over: Partial<MatchState> = {}): MatchState =>
  liveMatchState({
    status: 'playerveto',
    teamOne: { name: 'Team c1', captain: p('c1'), players: [p('c1'), p('a')] },
    teamTwo: { name: 'Team c2', captain: p('c2'), players: [p('c2')] },
    pool: [p('b'), p('c')],
    turn: 'teamTwo',
    deadline: 1,
    mapVeto: { pool: maps, bans: [] },
    ...over,
  });

describe('pick permissions', () => {
  it('only the captain on turn may pick, and only from the pool', () => {
    const s = state();
    expect(canPick(s, 'c2')).toBe(true);
    expect(canPick(s, 'c2', 'b')).toBe(true);
    expect(canPick(s, 'c2', 'a')).toBe(false); // already picked
    expect(canPick(s, 'c1')).toBe(false); // other captain
    expect(canPick(s, 'a')).toBe(false); // picked player
    expect(canPick(s, 'b')).toBe(false); // pool player
    expect(canPick(s, null)).toBe(false); // spectator
    expect(canPick(state({ status: 'mapveto' }), 'c2')).toBe(false);
  });

  it('knows teams and participants', () => {
    const s = state();
    expect(teamOf(s, 'a')).toBe('teamOne');
    expect(teamOf(s, 'b')).toBeNull();
    expect(isParticipant(s, 'b')).toBe(true);
    expect(isParticipant(s, 'zz')).toBe(false);
    expect(canAskForHelp(s, 'b')).toBe(true);
    expect(canAskForHelp(s, 'zz')).toBe(false);
    expect(canAskForHelp(state({ status: 'finished' }), 'a')).toBe(false);
  });
});

describe('admin cancel', () => {
  it('only an admin, and only while the match is not over', () => {
    for (const status of ['playerveto', 'mapveto', 'active'] as const)
      expect(canCancelMatch(state({ status }), 'ADMIN')).toBe(true);
    expect(canCancelMatch(state({ status: 'finished' }), 'ADMIN')).toBe(false);
    expect(canCancelMatch(state({ status: 'cancelled' }), 'ADMIN')).toBe(false);
    expect(canCancelMatch(state({ status: 'active' }), 'USER')).toBe(false);
    expect(canCancelMatch(state({ status: 'active' }), undefined)).toBe(false);
  });
});

describe('admin match tools', () => {
  it('follow the phase, and players get none', () => {
    const server = { gotv: '10.0.0.1:27020' };
    expect(matchToolsFor(state({ status: 'playerveto' }), 'ADMIN')).toEqual(['swap']);
    expect(matchToolsFor(state({ status: 'active', server: null }), 'ADMIN')).toEqual(['swap', 'result']);
    expect(matchToolsFor(state({ status: 'active', server }), 'ADMIN')).toEqual(['move', 'swap', 'result']);
    expect(matchToolsFor(state({ status: 'finished', server }), 'ADMIN')).toEqual(['correct', 'void']);
    expect(matchToolsFor(state({ status: 'cancelled' }), 'ADMIN')).toEqual([]);
    expect(matchToolsFor(state({ status: 'finished' }), 'USER')).toEqual([]);
  });
});

describe('ban permissions', () => {
  it('only the captain on turn may ban a map that is still in', () => {
    const s = state({
      status: 'mapveto',
      turn: 'teamOne',
      mapVeto: { pool: maps, bans: [{ mapKey: 'de_dust2', team: 'teamTwo' }] },
    });
    expect(bannedBy(s, 'de_dust2')).toBe('teamTwo');
    expect(canBan(s, 'c1', 'de_ancient')).toBe(true);
    expect(canBan(s, 'c1', 'de_dust2')).toBe(false);
    expect(canBan(s, 'c1', 'de_unknown')).toBe(false);
    expect(canBan(s, 'c2', 'de_ancient')).toBe(false);
    expect(canBan(s, null, 'de_ancient')).toBe(false);
  });
});

describe('scoreboard order', () => {
  it('sorts by kills', () => {
    const line = (userId: string, kills: number, deaths: number) => ({
      userId,
      name: userId,
      team: 'teamOne' as const,
      kills,
      deaths,
      assists: 0,
      damage: 0,
      headshots: 0,
      eloBefore: null,
      eloAfter: null,
    });
    const s = state({ stats: [line('x', 3, 5), line('y', 9, 2), line('z', 3, 1)] });
    expect(sortedStats(s).map((l) => l.userId)).toEqual(['y', 'z', 'x']);
  });
});
