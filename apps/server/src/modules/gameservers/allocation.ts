/**
 * A match's game server: the `match.allocate` job the matches module arms once the map is set, and
 * the allocation itself, which the admin's "move to another server" also runs
 * (admin/match-tools.ts). Re-exported by service.ts.
 */
import { randomBytes } from 'node:crypto';
import type { TeamKey } from '@openpug/shared';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { After, defineJob, jobField, logOf } from '../../jobs';
import { isRostered, type MatchRow, matchStateOf, type PlayerRow } from '../matches';
import { cancelMatchTx, loadMatch, setServer } from '../matches/service';
import { gameServerUrls } from './provider';
import { providerOf } from './service';

/**
 * Asks the provider for a server for the match (loaded and locked by the caller, map set) and
 * stores it with a fresh webhook secret; throws when no server takes it. `exclude` is a server not
 * to take (an admin moves the match away from it, admin/match-tools.ts).
 */
export async function allocateServer(
  ctx: AppContext,
  tx: Db,
  after: After,
  { match, players }: { match: MatchRow; players: readonly PlayerRow[] },
  exclude: string | null = null,
): Promise<void> {
  const provider = providerOf(ctx);
  const roster = (team: TeamKey) =>
    players
      .filter((p) => p.team === team && isRostered(p))
      .sort((a, b) => (a.pickNo ?? 0) - (b.pickNo ?? 0))
      .map((p) => ({ userId: p.userId, steamId: p.steamId, name: p.name }));
  const secret = randomBytes(24).toString('base64url');
  // The provider's after-commit work (arming the job that has a real server load the match)
  // runs once the room has been told about the server, so a failed load reads as "server
  // announced, then cancelled".
  const providerAfter = new After();
  const server = await provider.allocate(
    {
      matchId: match.id,
      map: { key: match.mapKey as string, name: match.mapName ?? (match.mapKey as string) },
      teams: {
        teamOne: { name: match.teamOneName, players: roster('teamOne') },
        teamTwo: { name: match.teamTwoName, players: roster('teamTwo') },
      },
      eventsUrl: gameServerUrls(ctx.config.PUBLIC_URL, match.id).eventsUrl,
      secret,
      exclude,
    },
    tx,
    providerAfter,
  );
  await setServer(ctx, tx, after, match.id, { ...server, provider: provider.name, secret });
  after.add(() => providerAfter.run(logOf(ctx)));
}

/**
 * A match's map is set (the matches module schedules this at once): it gets a game server, or is
 * cancelled with SERVER_UNAVAILABLE when no provider takes it.
 */
export const allocateJob = defineJob({
  kind: 'match.allocate',
  payload: z.object({ matchId: jobField.id }),
  handle: async (ctx, tx, after, { matchId }) => {
    const found = await loadMatch(tx, matchId, true);
    // Only a match that still wants a server (not moved or ended since the job was armed).
    if (!found || matchStateOf(found.match) !== 'allocating' || !found.match.mapKey) return;
    try {
      await allocateServer(ctx, tx, after, found);
    } catch (err) {
      logOf(ctx).error({ err, matchId: found.match.id }, 'no game server for the match');
      await cancelMatchTx(ctx, tx, after, found.match.id, 'SERVER_UNAVAILABLE');
    }
  },
});
