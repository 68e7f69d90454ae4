/**
 * The status line of docs/contract.md §2 as data: which line a user status shows, in the spec's priority
 * order, with the score and a relative time in the interface language ("5 minutes ago",
 * "vor 5 Minuten").
 */
import type { UserStatus } from '@openpug/shared';
import relativeTimePlugin from 'dayjs/plugin/relativeTime';
import { dayjs } from '../features/dates';

dayjs.extend(relativeTimePlugin);

export type StatusLineKind =
  | 'inArena'
  | 'inQueue'
  | 'playerveto'
  | 'mapveto'
  | 'inGame'
  | 'online'
  | 'lastSeen'
  | 'offline';

export interface StatusLineData {
  kind: StatusLineKind;
  /** i18n key under `friends.status.` */
  key: StatusLineKind;
  params?: Record<string, string>;
  /** Colour hint: playing/lobby/queue, just online, or away. */
  tone: 'busy' | 'online' | 'away';
}

/** `own : opponent`, ordered by the user's team. */
export function scoreText(status: UserStatus): string {
  const { teamOne, teamTwo } = status.match.score;
  return status.teamOne ? `${teamOne} : ${teamTwo}` : `${teamTwo} : ${teamOne}`;
}

/** Relative time in the given language ("5 minutes ago", "vor 5 Minuten"); never "in …". */
export function relativeTime(epochMs: number, now: number = Date.now(), language = 'en'): string {
  return dayjs(epochMs)
    .locale(language === 'de' ? 'de' : 'en')
    .from(dayjs(Math.max(now, epochMs)));
}

export function statusLineOf(status: UserStatus, now: number = Date.now(), language = 'en'): StatusLineData {
  const match = status.match;
  if (status.inArena) return { kind: 'inArena', key: 'inArena', tone: 'busy' };
  if (status.inQueue) return { kind: 'inQueue', key: 'inQueue', tone: 'busy' };
  if (match.active && match.status === 'playerveto')
    return { kind: 'playerveto', key: 'playerveto', tone: 'busy' };
  if (match.active && match.status === 'mapveto') return { kind: 'mapveto', key: 'mapveto', tone: 'busy' };
  if (match.active && match.status === 'active') {
    return {
      kind: 'inGame',
      key: 'inGame',
      params: { map: match.map ?? '?', score: scoreText(status) },
      tone: 'busy',
    };
  }
  if (status.online) return { kind: 'online', key: 'online', tone: 'online' };
  if (status.lastSeen !== null) {
    return {
      kind: 'lastSeen',
      key: 'lastSeen',
      params: { time: relativeTime(status.lastSeen, now, language) },
      tone: 'away',
    };
  }
  return { kind: 'offline', key: 'offline', tone: 'away' };
}
