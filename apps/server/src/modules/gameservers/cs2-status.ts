/**
 * Who is on a CS2 server, from its own console over RCON.
 *
 * CS2's `status` no longer names players by SteamID: its player table is
 * `id time ping loss state rate adr name` (e.g. `   2    01:23   35    0     active 786432
 * 1.2.3.4:27005 'Some Player'`, connecting slots as `65535 [NoChan] … challenging … ''`). The
 * SteamIDs are in `status_json`, under `server.clients[]` as `{steamid64, steamid, bot, name}`:
 * bots carry `bot: true` (and `[A:1:n:1]` ids), a slot still connecting shows `steamid64: "0"`,
 * `steamid: "[I:0:0]"` and an empty name, a player `"steamid64": "7656119…"`,
 * `"steamid": "[U:1:<account id>]"`. Followed against
 *  - 5stackgg/api (an open-source CS2 PUG platform), src/dedicated-servers/dedicated-servers.service.ts
 *    at e693141a, getServerPlayerList / parseStatusJson: `status_json` for CS2, `status` only for CS:GO;
 *  - a real CS2 1.41.2.8 answer pair (`status` and `status_json`, build_version 2000696) kept as the
 *    fixture of a public Flutter CS2 RCON client's test (package cs2_rcon_front_end,
 *    test/…/watch_server_status_test.dart), reproduced in cs2-status.test.ts.
 * MatchZy itself reports no connects: its Events.cs:96-104 declares a `player_disconnect` event
 * that nothing sends (shobhit-pathak/MatchZy ef289d5), and get5_status's `connected_clients` is
 * always -1 (G5API.cs:143).
 */

/** SteamID64 of individual accounts: 76561197960265728 + account id (universe 1, type 1, instance 1). */
const INDIVIDUAL_BASE = 76561197960265728n;
const INDIVIDUAL_MAX = INDIVIDUAL_BASE + 0xffffffffn;

function individual(id: unknown): string | null {
  const s = typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
  if (!/^\d{17}$/.test(s)) return null;
  const n = BigInt(s);
  return n > INDIVIDUAL_BASE && n <= INDIVIDUAL_MAX ? s : null;
}

/** `[U:1:<account id>]` → SteamID64, else null. */
export function steam3ToSteam64(steam3: unknown): string | null {
  if (typeof steam3 !== 'string') return null;
  const m = /^\[U:1:(\d{1,10})\]$/.exec(steam3.trim());
  return m ? individual(String(INDIVIDUAL_BASE + BigInt(m[1]))) : null;
}

/**
 * The SteamID64s of the human players `status_json` lists (bots, GOTV and slots still connecting
 * left out), in the server's order; null when the answer is not CS2's status_json (another game,
 * an old build without the command, garbage).
 */
export function parseCs2StatusJson(answer: string): string[] | null {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return null;
  }
  const server = (doc as { server?: unknown })?.server;
  if (!server || typeof server !== 'object') return null;
  const clients = (server as { clients?: unknown }).clients ?? [];
  if (!Array.isArray(clients)) return null;
  const ids: string[] = [];
  for (const c of clients) {
    if (!c || typeof c !== 'object') continue;
    const client = c as { steamid64?: unknown; steamid?: unknown; bot?: unknown };
    if (client.bot === true) continue;
    const id = individual(client.steamid64) ?? steam3ToSteam64(client.steamid);
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
