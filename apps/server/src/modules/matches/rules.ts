/**
 * Pure rules of the match room (unit-tested without a database): captains, pick turns, the
 * auto-pick, ban turns and the default map pool.
 */
import type { MapInfo, TeamKey } from '@openpug/shared';

/**
 * The seven CS2 Active Duty maps: the pool used when the stored one (table `maps`) has no active
 * map, and the names of keys the table does not know. The first copy is the seed in migration
 * 0003_*.sql: a database gets its maps from there once, and an applied migration is never edited,
 * so changing this list changes no existing database. A new map is a new migration inserting its
 * row (CONTRIBUTING.md, "Add a map to the veto pool"); this list is only the fallback.
 */
export const DEFAULT_MAP_POOL: MapInfo[] = [
  { key: 'de_ancient', name: 'Ancient' },
  { key: 'de_anubis', name: 'Anubis' },
  { key: 'de_dust2', name: 'Dust II' },
  { key: 'de_inferno', name: 'Inferno' },
  { key: 'de_mirage', name: 'Mirage' },
  { key: 'de_nuke', name: 'Nuke' },
  { key: 'de_train', name: 'Train' },
];

export interface Rated {
  id: string;
  elo: number;
}

/** Fisher–Yates with an injectable random source. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Captains are the two highest-rated players (ties broken at random). The lower-rated of the two
 * leads team one, which picks first.
 */
export function chooseCaptains(players: readonly Rated[], random: () => number = Math.random) {
  if (players.length < 2) throw new Error('need at least two players');
  const ranked = shuffle(players, random).sort((a, b) => b.elo - a.elo);
  return { teamOne: ranked[1].id, teamTwo: ranked[0].id };
}

/** Whose pick it is at pick `index` (0-based) in an order like ABBAABBA. */
export function pickTurn(order: string, index: number): TeamKey | null {
  const c = order[index];
  if (c === undefined) return null;
  return c === 'A' ? 'teamOne' : 'teamTwo';
}

/**
 * The auto-pick before the fair one (fairness.ts): the highest-rated player left (ties: the earliest
 * in the list). Kept as the baseline bench/draft-fairness-bench.ts measures the fair rule against.
 */
export function autoPick<T extends Rated>(pool: readonly T[]): T | null {
  let best: T | null = null;
  for (const p of pool) if (!best || p.elo > best.elo) best = p;
  return best;
}

/** Team one bans first, then turns alternate. */
export function banTurn(bansSoFar: number): TeamKey {
  return bansSoFar % 2 === 0 ? 'teamOne' : 'teamTwo';
}

export function remainingMaps(pool: readonly MapInfo[], bans: readonly { mapKey: string }[]): MapInfo[] {
  const banned = new Set(bans.map((b) => b.mapKey));
  return pool.filter((m) => !banned.has(m.key));
}

export const otherTeam = (t: TeamKey): TeamKey => (t === 'teamOne' ? 'teamTwo' : 'teamOne');
