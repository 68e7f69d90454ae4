/** Every cell of the match lifecycle table: the legal ones, and the refusal of all others. */
import { randomUUID } from 'node:crypto';
import { type MatchStatus, matchStatuses } from '@openpug/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers';
import { AppError } from '../../lib/errors';
import {
  ACTIVE_STAGES,
  inMatchStates,
  MATCH_EVENTS,
  MATCH_LIFECYCLE_STATES,
  MATCH_START,
  MATCH_TRANSITIONS,
  matchLifecycle,
  matchStateOf,
  statusOf,
} from './lifecycle';
import { matches } from './schema';

const ended = 'endDeadlines,announceEnded';
/** "state event" → "next effects…", written out independently of the table. */
const legal: Record<string, string> = {
  'playerveto pick': 'playerveto armPickDeadline',
  'playerveto teamsPicked': 'mapveto armBanDeadline',
  'playerveto mapChosen': 'allocating requestServer',
  'playerveto cancel': `cancelled ${ended}`,
  'playerveto swap': 'playerveto',
  'mapveto ban': 'mapveto armBanDeadline',
  'mapveto mapChosen': 'allocating requestServer',
  'mapveto cancel': `cancelled ${ended}`,
  'mapveto swap': 'mapveto',
  'allocating serverSet': 'waiting armLiveDeadline',
  'allocating finish': `finished ${ended}`,
  'allocating cancel': `cancelled ${ended}`,
  'allocating liveTimeout': `cancelled ${ended}`,
  'allocating staleTimeout': `cancelled ${ended}`,
  'allocating swap': 'allocating',
  'waiting serverSet': 'waiting armLiveDeadline',
  'waiting wentLive': 'live disarmLiveDeadline,openVoiceChannels',
  'waiting serverMoved': 'allocating dropDeadlines',
  'waiting finish': `finished ${ended}`,
  'waiting cancel': `cancelled ${ended}`,
  'waiting liveTimeout': `cancelled ${ended}`,
  'waiting staleTimeout': `cancelled ${ended}`,
  'waiting swap': 'waiting',
  'live serverMoved': 'allocating dropDeadlines',
  'live finish': `finished ${ended}`,
  'live cancel': `cancelled ${ended}`,
  'live staleTimeout': `cancelled ${ended}`,
  'live swap': 'live',
  'finished correct': 'finished',
  'finished void': 'cancelled',
};

const cells = MATCH_LIFECYCLE_STATES.flatMap((state) => MATCH_EVENTS.map((event) => ({ state, event })));

describe('match lifecycle table', () => {
  it('has a row for every state: the statuses with active split into its stages', () => {
    expect(MATCH_LIFECYCLE_STATES).toEqual([
      'playerveto',
      'mapveto',
      'allocating',
      'waiting',
      'live',
      'finished',
      'cancelled',
    ]);
    expect(Object.keys(MATCH_TRANSITIONS).sort()).toEqual([...MATCH_LIFECYCLE_STATES].sort());
    expect(new Set(MATCH_LIFECYCLE_STATES.map(statusOf))).toEqual(new Set(matchStatuses));
  });

  it('names only states and events that exist in the list of legal cells', () => {
    const known = new Set(cells.map((c) => `${c.state} ${c.event}`));
    expect(Object.keys(legal).filter((k) => !known.has(k))).toEqual([]);
  });

  it.each(cells)('$state × $event', ({ state, event }) => {
    const expected = legal[`${state} ${event}`];
    const outcome = matchLifecycle.transition(state, event);
    if (expected === undefined) {
      expect(outcome).toEqual({ ok: false, key: 'WRONG_MATCH_PHASE' });
      expect(() => matchLifecycle.require(state, event)).toThrow(
        expect.objectContaining({ status: 409, key: 'WRONG_MATCH_PHASE' }),
      );
      return;
    }
    if (!outcome.ok) throw new Error(`${state} × ${event} refused, expected ${expected}`);
    expect([outcome.to, outcome.effects.join(',')].filter(Boolean).join(' ')).toBe(expected);
    expect(matchLifecycle.require(state, event).to).toBe(outcome.to);
  });

  it('a new match starts in the draft with its first pick deadline', () => {
    expect(MATCH_START).toEqual({ to: 'playerveto', effects: ['armPickDeadline'] });
    expect(MATCH_LIFECYCLE_STATES[0]).toBe(MATCH_START.to);
  });

  it('refuses with an AppError the error handler answers as 409', () => {
    expect(() => matchLifecycle.require('cancelled', 'cancel')).toThrow(AppError);
  });
});

describe('matchStateOf', () => {
  const row = (status: (typeof matchStatuses)[number], serverGotv: string | null, liveAt: number | null) => ({
    status,
    serverGotv,
    liveAt,
  });

  it('reads the stage of an active match from its server and live columns', () => {
    expect(matchStateOf(row('active', null, null))).toBe('allocating');
    expect(matchStateOf(row('active', '10.0.0.1:27020', null))).toBe('waiting');
    expect(matchStateOf(row('active', '10.0.0.1:27020', 1_000))).toBe('live');
  });

  it('is the status itself outside active, whatever the columns say', () => {
    for (const status of matchStatuses.filter((s) => s !== 'active'))
      expect(matchStateOf(row(status, '10.0.0.1:27020', 1_000))).toBe(status);
  });

  it('maps every stage back to active', () => {
    for (const stage of ACTIVE_STAGES) expect(statusOf(stage)).toBe('active');
  });
});

describe('inMatchStates', () => {
  let database: TestDatabase;
  /** One stored match per lifecycle state, with the columns that state has. */
  const rows = new Map<string, { status: MatchStatus; serverGotv: string | null; liveAt: number | null }>();

  beforeAll(async () => {
    database = await openTestDatabase();
    const shapes: [MatchStatus, string | null, number | null][] = [
      ['playerveto', null, null],
      ['mapveto', null, null],
      ['active', null, null],
      ['active', '10.0.0.1:27020', null],
      ['active', '10.0.0.1:27020', 1_000],
      ['finished', '10.0.0.1:27020', 1_000],
      ['cancelled', null, null],
    ];
    for (const [status, serverGotv, liveAt] of shapes) {
      const id = randomUUID();
      rows.set(id, { status, serverGotv, liveAt });
      await database.db.insert(matches).values({
        id,
        status,
        serverGotv,
        liveAt,
        createdAt: 1,
        teamOneName: 'a',
        teamTwoName: 'b',
        pickOrder: 'ABBAABBA',
        mapPool: [],
      });
    }
  });
  afterAll(() => database.dispose());

  it.each(MATCH_LIFECYCLE_STATES)('selects exactly the matches matchStateOf reads as %s', async (state) => {
    const found = await database.db.select({ id: matches.id }).from(matches).where(inMatchStates(state));
    const expected = [...rows].filter(([, row]) => matchStateOf(row) === state).map(([id]) => id);
    expect(expected).toHaveLength(1);
    expect(found.map((r) => r.id)).toEqual(expected);
  });

  it('combines several states', async () => {
    const found = await database.db
      .select({ id: matches.id })
      .from(matches)
      .where(inMatchStates('allocating', 'waiting'));
    expect(found).toHaveLength(2);
  });
});
