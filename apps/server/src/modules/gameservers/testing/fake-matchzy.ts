/**
 * A fake CS2 dedicated server running MatchZy, rebuilt from MatchZy's source (shobhit-pathak/MatchZy
 * at commit ef289d512766b89b0f7bf3088208ae88235e61fa, "0.8.15"); every behaviour it imitates names
 * the upstream file and line. Test support only (not bundled: nothing in the app imports it).
 *
 * RCON over TCP with its own framing (independent of the client under test). `style: 'cs2'` (the
 * default, what CS2 does) sends no empty RESPONSE_VALUE before the login answer, does not mirror
 * an empty RESPONSE_VALUE, and sends nothing at all for a command that prints nothing; `'csgo'`
 * does all three. `mute` stops answering; `dropOnCommand` closes the connection on a command.
 *
 * MatchZy state: `get5_status` as G5API.cs builds it (nulls while no match is set up),
 * `matchzy_loadmatch_url` (fetch with the given header, validation, settings replaced by the
 * config, a `changelevel` when the server is on another map, during which the server does not
 * answer), `get5_endmatch` (refused in practice mode), the remote-log cvars,
 * `matchzy_addplayer` / `matchzy_removeplayer` (Teams.cs, including removeplayer's team1-only
 * lookup), and CS2's own `status_json` listing who is connected (see cs2-status.ts for the
 * format and its sources). Players come and go with `connect` / `disconnect`. The game is driven by
 * the test: `goLive`, `playRound`, `endMap` build the events exactly as MatchZy does and queue them
 * in `outbox`; `deliver` posts them to the remote log URL in the order and as often as the test
 * says (MatchZy posts each from its own Task.Run: unordered, and a retried request can repeat).
 */
import net from 'node:net';

const AUTH = 3;
const AUTH_RESPONSE = 2;
const EXECCOMMAND = 2;
const RESPONSE_VALUE = 0;
/** Body bytes per answer packet (a packet is at most 4096 bytes with its 10 bytes of framing). */
const CHUNK = 4086;

function frame(id: number, type: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(14 + body.length);
  out.writeInt32LE(10 + body.length, 0);
  out.writeInt32LE(id, 4);
  out.writeInt32LE(type, 8);
  body.copy(out, 12);
  return out;
}

/** Splits a console line into arguments the way the Source console does (double quotes group). */
export function consoleArgs(line: string): string[] {
  const args: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) args.push(m[1] ?? m[2]);
  return args;
}

export interface ConfigFetch {
  url: string;
  headers: Record<string, string>;
  status: number;
}

export type TeamNo = 'team1' | 'team2';
/** CS team numbers as MatchZy reports sides: 2 = T, 3 = CT (CsTeam; Utility.cs:1059 `@event.Winner.ToString()`). */
export type CsSide = 2 | 3;

/** Cumulative per-player numbers (MatchData.cs:32 PlayerStats; the ones we read, the rest 0). */
export interface Line {
  kills: number;
  deaths: number;
  assists: number;
  damage: number;
  headshot_kills: number;
}

export type MatchzyEventJson = Record<string, unknown> & { event: string };

/** MatchData.cs:32 — every field of PlayerStats is serialized; we read five of them. */
function playerStats(l: Line): Record<string, number> {
  const zero = [
    'flash_assists',
    'team_kills',
    'suicides',
    'utility_damage',
    'enemies_flashed',
    'friendlies_flashed',
    'knife_kills',
    'rounds_played',
    'bomb_defuses',
    'bomb_plants',
    '1k',
    '2k',
    '3k',
    '4k',
    '5k',
    '1v1',
    '1v2',
    '1v3',
    '1v4',
    '1v5',
    'first_kills_t',
    'first_kills_ct',
    'first_deaths_t',
    'first_deaths_ct',
    'trade_kills',
    'kast',
    'score',
    'mvp',
  ];
  return {
    kills: l.kills,
    deaths: l.deaths,
    assists: l.assists,
    damage: l.damage,
    headshot_kills: l.headshot_kills,
    ...Object.fromEntries(zero.map((k) => [k, 0])),
  };
}

export class FakeMatchzyServer {
  /** Console commands received (the client's `echo` end markers are counted in `markers` instead). */
  readonly commands: string[] = [];
  markers = 0;
  readonly configFetches: ConfigFetch[] = [];
  logins = 0;
  failedLogins = 0;
  port = 0;
  mute = false;
  dropOnCommand = false;
  /** Answers `matchzy_loadmatch_url` without loading anything (a broken plugin, a lost request). */
  ignoreLoad = false;
  /** Extra text `cvarlist` prints (tests a long, multi-packet answer). */
  cvarlistText = '';
  /** The map the server is on; a loaded match on another map changes level (MatchManagement.cs:345). */
  map = 'de_dust2';
  /** How long a `changelevel` keeps the server from answering RCON (it drops connections too). */
  changelevelMs = 0;
  /** Practice mode (`.prac`, PracticeMode.cs:157): get5_endmatch is refused (ConsoleCommands.cs:469). */
  practice = false;
  /** Posts every event by itself as soon as MatchZy would send it (otherwise the test calls `deliver`). */
  autoDeliver = false;

  // MatchZy's state (MatchManagement.cs / Utility.cs fields of the same meaning).
  isMatchSetup = false;
  isMatchLive = false;
  postGame = false;
  liveMatchId = -1;
  /** matchConfig.RemoteLogURL / RemoteLogHeaderKey / RemoteLogHeaderValue (MatchConfig.cs:68). */
  remoteLog = { url: '', key: '', value: '' };
  /** The match config MatchZy accepted last. */
  config: Record<string, unknown> | null = null;
  score = { team1: 0, team2: 0 };
  /** Which CS side team1 is on (MatchZy's teamSides); team1 starts CT after the knife here. */
  team1Side: CsSide = 3;
  /** SteamID64s on the server (MatchZy's playerData: only connected players have stats, Utility.cs:1612). */
  readonly connected = new Set<string>();
  readonly lines = new Map<string, Line>();
  /** Events built but not yet posted, in the order MatchZy created them. */
  readonly outbox: MatchzyEventJson[] = [];
  /** Every POST made: the event, the HTTP status, the answer body. */
  readonly posted: { event: MatchzyEventJson; status: number; body: unknown }[] = [];
  private unreachableUntil = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    private readonly password: string,
    private readonly style: 'csgo' | 'cs2' = 'cs2',
  ) {
    this.server = net.createServer((socket) => this.onConnection(socket));
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** get5_status's gamestate (G5API.cs:178-231), as far as this fake tracks MatchZy's flags. */
  get gamestate(): string {
    if (!this.isMatchSetup) return 'none'; // G5API.cs:189
    if (this.postGame) return 'post_game'; // G5API.cs:209
    if (this.isMatchLive) return 'live'; // G5API.cs:213
    return 'warmup'; // G5API.cs:225
  }

  /** The match id MatchZy works with, as get5_status reports it (null while none is set up). */
  get matchid(): number | null {
    return this.isMatchSetup ? this.liveMatchId : null;
  }

  async listen(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** The server process restarts: every connection drops and MatchZy's in-memory state is gone. */
  restart(): void {
    for (const s of this.sockets) s.destroy();
    this.resetMatch();
    this.remoteLog = { url: '', key: '', value: '' };
    this.connected.clear();
    this.lines.clear();
  }

  /** Utility.cs:372 ResetMatch — keeps the remote log settings (Utility.cs:469-475). */
  private resetMatch(): void {
    this.isMatchSetup = false;
    this.isMatchLive = false;
    this.postGame = false;
    this.liveMatchId = -1; // Utility.cs:392
    this.practice = false; // Utility.cs:393
    this.config = null;
    this.score = { team1: 0, team2: 0 };
    this.team1Side = 3;
  }

  // ---------------------------------------------------------------- the game, as MatchZy reports it

  /**
   * A player connects (joins MatchZy's playerData). With a match set up, one on neither team is
   * kicked at once (EventHandlers.cs:26-35); false then.
   */
  connect(steamId: string): boolean {
    if (this.isMatchSetup && !(['team1', 'team2'] as const).some((t) => steamId in this.roster(t)))
      return false;
    this.connected.add(steamId);
    if (!this.lines.has(steamId))
      this.lines.set(steamId, { kills: 0, deaths: 0, assists: 0, damage: 0, headshot_kills: 0 });
    return true;
  }

  /** A player leaves the server (CS2 drops them from status_json; MatchZy from playerData). */
  disconnect(steamId: string): void {
    this.connected.delete(steamId);
  }

  /**
   * CS2's `status_json` (the shape of a real CS2 1.41.2.8 answer, cs2-status.ts): `server.clients`
   * with the GOTV bot, a slot still connecting (`steamid64` "0", `[I:0:0]`, no name) and each
   * connected player as `{steamid64, steamid: "[U:1:<account id>]", bot: false, name}`.
   */
  statusJson(): string {
    const names = { ...this.roster('team1'), ...this.roster('team2') };
    const clients = [
      { steamid64: '90071996842377218', steamid: '[A:1:2:1]', bot: true, name: 'SourceTV' },
      { steamid64: '0', steamid: '[I:0:0]', bot: false, name: '' },
      ...[...this.connected].map((id) => ({
        steamid64: id,
        steamid: `[U:1:${BigInt(id) - 76561197960265728n}]`,
        bot: false,
        name: names[id] ?? 'player',
      })),
    ];
    return `${JSON.stringify(
      {
        process_uptime: 2718,
        build_version: 2000696,
        server: {
          hibernating: false,
          clients_bot: 1,
          clients_human: this.connected.size,
          clients_proxies: 0,
          map: this.map,
          udp_port: 27015,
          clients,
          steam_loggedon: true,
        },
      },
      null,
      '\t',
    )}\n`;
  }

  /** Teams.cs:72-116 OnAddPlayerCommand / :159-178 AddPlayerToTeam. */
  private addPlayer(args: string[]): string {
    if (!this.isMatchSetup) return 'No match is setup!\n';
    if (args.length < 2) return 'Usage: matchzy_addplayer <steam64> <team> "<name>"\n'; // ArgCount < 3
    const [steamId, team, name = ''] = args;
    if (!['team1', 'team2', 'spec'].includes(team))
      return 'Unknown team: must be one of team1, team2, spec\n';
    if ((['team1', 'team2'] as const).some((t) => steamId in this.roster(t)))
      return `Failed to add player ${name} to ${team}. They may already be on a team or you provided an invalid Steam ID.\n`;
    if (team !== 'spec') this.roster(team as TeamNo)[steamId] = name;
    return `Player ${name} added to ${team} successfully!\n`;
  }

  /**
   * Teams.cs:118-157 OnRemovePlayerCommand / :180-199 RemovePlayerFromTeam: the loop returns after
   * the first roster it looks at (team1, a JObject), whether the player was in it or not — a team2
   * player stays in team2. The player is kicked if connected either way (:145-152).
   */
  private removePlayer(args: string[]): string {
    if (!this.isMatchSetup) return 'No match is setup!\n';
    const steamId = args[0] ?? '';
    if (!/^\d+$/.test(steamId)) return 'Invalid Steam64\n';
    delete this.roster('team1')[steamId];
    this.removeCalls.push(steamId);
    this.connected.delete(steamId); // KickPlayer
    return `Successfully removed player ${steamId}\n`;
  }

  /** SteamID64s given to matchzy_removeplayer. */
  readonly removeCalls: string[] = [];

  /** SteamID64s of a team in the loaded config. */
  steamIds(team: TeamNo): string[] {
    return Object.keys(this.roster(team));
  }

  private roster(team: TeamNo): Record<string, string> {
    const t = this.config?.[team] as { players?: Record<string, string> } | undefined;
    if (t && !t.players) t.players = {};
    return (t?.players ?? {}) as Record<string, string>;
  }

  /**
   * Everyone readied: MatchZy starts (knife here is skipped: sides as set) and goes live. Each
   * team needs min_players_to_ready ready players — per team (ReadySystem.cs:32-57, 71).
   */
  goLive(opts: { forced?: boolean } = {}): void {
    if (!this.isMatchSetup) throw new Error('no match is set up');
    const min = Number(this.config?.min_players_to_ready ?? 0);
    // An admin's `css_forcestart` (ConsoleCommands.cs:543-545) starts without the ready check.
    for (const team of opts.forced ? [] : (['team1', 'team2'] as const)) {
      const ready = Object.keys(this.roster(team)).filter((s) => this.connected.has(s)).length;
      if (ready < min) throw new Error(`${team}: ${ready} of ${min} players ready (per team)`);
    }
    this.isMatchLive = true;
    // Utility.cs:331-340: going_live from its own task.
    this.emit({ event: 'going_live', matchid: this.liveMatchId, map_number: 0 });
  }

  /** Adds one round's numbers to a player's cumulative line. */
  addLine(steamId: string, l: Partial<Line>): void {
    const cur = this.lines.get(steamId);
    if (!cur || !this.connected.has(steamId)) return;
    for (const k of Object.keys(l) as (keyof Line)[]) cur[k] += l[k] ?? 0;
  }

  private statsTeam(team: TeamNo, score: number, withPlayers: boolean) {
    const players = withPlayers
      ? Object.entries(this.roster(team))
          .filter(([s]) => this.connected.has(s)) // Utility.cs:1612-1615: connected players only
          .map(([steamid, name]) => ({
            steamid,
            name,
            stats: playerStats(this.lines.get(steamid) as Line),
          }))
      : [];
    // MatchData.cs:149-173 MatchZyStatsTeam: id, name, series_score, score, score_ct, score_t, players.
    return {
      id: '',
      name: (this.config?.[team] as { name?: string })?.name ?? team,
      series_score: 0,
      score,
      score_ct: 0,
      score_t: 0,
      players,
    };
  }

  /**
   * One round ends, won by `winner` (or drawn: nobody scores), with `reason` (CS RoundEndReason,
   * e.g. 8 CTs win, 9 Ts win, 10 draw, 17/18 surrender). Utility.cs:1040-1107 HandlePostRoundEndEvent.
   */
  playRound(winner: TeamNo | null, reason?: number): MatchzyEventJson {
    if (!this.isMatchLive) throw new Error('not live');
    if (winner) this.score[winner]++;
    const side2: CsSide = this.team1Side === 3 ? 2 : 3;
    const winningSide: CsSide = winner === 'team1' ? this.team1Side : winner === 'team2' ? side2 : 3;
    const { team1: t1score, team2: t2score } = this.score; // Utility.cs:1048 GetTeamsScore()
    const event: MatchzyEventJson = {
      event: 'round_end',
      matchid: this.liveMatchId,
      map_number: 0,
      round_number: t1score + t2score, // Utility.cs:1065 GetRoundNumer() = t1score + t2score (1026)
      round_time: 0, // Utility.cs:1067
      reason: reason ?? (winningSide === 3 ? 8 : 9),
      // Utility.cs:1059 — side: the CS team number that won the round; team: whoever LEADS the map
      // after it (team2 when level), not the round's winner.
      winner: { side: String(winningSide), team: t1score > t2score ? 'team1' : 'team2' },
      team1: this.statsTeam('team1', t1score, true), // Utility.cs:1069
      team2: this.statsTeam('team2', t2score, true), // Utility.cs:1070
    };
    this.emit(event); // Utility.cs:1073 Task.Run → SendEventAsync
    if (this.swapRequired(t1score + t2score)) this.team1Side = side2; // Utility.cs:1099-1105
    return event;
  }

  /** Utility.cs:1116-1145 IsTeamSwapRequired with mp_maxrounds 24, mp_overtime_maxrounds 6. */
  private swapRequired(roundsPlayed: number): boolean {
    if (roundsPlayed === 12) return true;
    if (roundsPlayed >= 24) return (roundsPlayed - 24 + 3) % 6 === 0;
    return false;
  }

  /**
   * The map is over (cs_win_panel_match, EventHandlers.cs:134 → HandleMatchEnd, Utility.cs:840):
   * map_result with an empty players list (Utility.cs:877-878) and the leader as winner, team2 on
   * a draw (Utility.cs:876); then EndSeries (MatchManagement.cs:578) posts series_end two seconds
   * later (MatchManagement.cs:604-606) with winner "none" on a draw (MatchManagement.cs:591).
   */
  endMap(): void {
    const { team1: t1score, team2: t2score } = this.score;
    const s1 = t1score > t2score ? 1 : 0; // Utility.cs:984-1001 GetMatchWinnerName
    const s2 = t2score > t1score ? 1 : 0;
    const winSide = t1score > t2score && this.team1Side === 3 ? '3' : '2';
    this.emit({
      event: 'map_result',
      matchid: this.liveMatchId,
      map_number: 0,
      winner: { side: winSide, team: t1score > t2score ? 'team1' : 'team2' },
      team1: this.statsTeam('team1', t1score, false),
      team2: this.statsTeam('team2', t2score, false),
    });
    const draw = s1 === s2; // Utility.cs:899-901: a level series ends with winnerName null
    this.emit({
      event: 'series_end',
      matchid: this.liveMatchId,
      time_until_restore: 10,
      winner: { side: winSide, team: draw ? 'none' : s1 > s2 ? 'team1' : 'team2' },
      team1_series_score: s1,
      team2_series_score: s2,
    });
    this.isMatchLive = false; // MatchManagement.cs:610
    this.postGame = true;
  }

  private emit(event: MatchzyEventJson): void {
    this.outbox.push(event);
    if (this.autoDeliver) void this.deliver();
  }

  /**
   * Posts what is in the outbox (or `events`) to the remote log URL with the remote log header,
   * as SendEventAsync does (PublishEvents.cs:9-43: nothing without a URL, no retry, errors
   * swallowed). `order` picks the delivery order, `times` how often each is posted.
   */
  async deliver(
    opts: { order?: 'as-built' | 'reversed' | number[]; times?: number; events?: MatchzyEventJson[] } = {},
  ): Promise<{ event: MatchzyEventJson; status: number; body: unknown }[]> {
    const events = opts.events ?? this.outbox.splice(0);
    let ordered = events;
    if (opts.order === 'reversed') ordered = [...events].reverse();
    else if (Array.isArray(opts.order)) ordered = opts.order.map((i) => events[i]);
    const out: { event: MatchzyEventJson; status: number; body: unknown }[] = [];
    for (const event of ordered) for (let i = 0; i < (opts.times ?? 1); i++) out.push(await this.post(event));
    return out;
  }

  /**
   * Posts a hand-built event (this match's numeric matchid unless given) and moves MatchZy's state
   * the way the real event would have: live from going_live, post-game once the map is over.
   */
  async sendEvent(event: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    if (event.event === 'going_live') this.isMatchLive = true;
    if (event.event === 'map_result' || event.event === 'series_end') {
      this.isMatchLive = false;
      this.postGame = true;
    }
    const { status, body } = await this.post({
      matchid: this.liveMatchId,
      ...event,
    } as unknown as MatchzyEventJson);
    return { status, body };
  }

  async post(event: MatchzyEventJson): Promise<{ event: MatchzyEventJson; status: number; body: unknown }> {
    if (!this.remoteLog.url) return { event, status: 0, body: null }; // PublishEvents.cs:13
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.remoteLog.key && this.remoteLog.value) headers[this.remoteLog.key] = this.remoteLog.value; // :24-27
    const res = await fetch(this.remoteLog.url, { method: 'POST', headers, body: JSON.stringify(event) });
    const result = { event, status: res.status, body: await res.json().catch(() => null) };
    this.posted.push(result);
    return result;
  }

  // ---------------------------------------------------------------------------------------- RCON

  private onConnection(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let authed = false;
    let buffer = Buffer.alloc(0);
    // Packets are handled one after another, like the server's console: a slow command (the
    // config fetch, MatchManagement.cs:118 blocks on `.Result`) delays the answers behind it.
    let chain: Promise<void> = Promise.resolve();
    const write = (b: Buffer) => {
      if (!socket.destroyed) socket.write(b);
    };
    const handle = async (id: number, type: number, body: string) => {
      if (this.mute || Date.now() < this.unreachableUntil) return;
      if (type === AUTH) {
        if (this.style === 'csgo') write(frame(id, RESPONSE_VALUE));
        authed = body === this.password;
        if (authed) this.logins++;
        else this.failedLogins++;
        write(frame(authed ? id : -1, AUTH_RESPONSE));
        return;
      }
      if (!authed) return;
      if (type === RESPONSE_VALUE) {
        if (this.style === 'csgo') {
          write(frame(id, RESPONSE_VALUE));
          write(frame(id, RESPONSE_VALUE, Buffer.from([0, 0, 0, 1, 0, 0, 0, 0])));
        }
        return;
      }
      if (type !== EXECCOMMAND) return;
      if (body.startsWith('echo openpug-rcon-end')) this.markers++;
      else this.commands.push(body);
      if (this.dropOnCommand) {
        socket.destroy();
        return;
      }
      const answer = Buffer.from(await this.execute(body), 'utf8');
      if (answer.length === 0 && this.style === 'csgo') write(frame(id, RESPONSE_VALUE));
      for (let i = 0; i < answer.length; i += CHUNK)
        write(frame(id, RESPONSE_VALUE, answer.subarray(i, i + CHUNK)));
      if (this.pendingChangelevel) {
        // ChangeMap(map, 0) is a timer (Utility.cs:966-969): it runs on the next frame, after the
        // commands already queued on the console.
        const map = this.pendingChangelevel;
        this.pendingChangelevel = null;
        setTimeout(() => this.changelevel(map), 0);
      }
    };
    // Packets as the Source RCON protocol frames them (Valve Developer Community, "Source RCON
    // Protocol", Basic Packet Structure): int32 LE size, int32 id, int32 type, a NUL-terminated body
    // and an empty NUL-terminated string; TCP may split or join them, so they are read from a buffer.
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const size = buffer.readInt32LE(0);
        if (buffer.length < 4 + size) break;
        const id = buffer.readInt32LE(4);
        const type = buffer.readInt32LE(8);
        const body = buffer.toString('utf8', 12, 4 + size - 2);
        buffer = buffer.subarray(4 + size);
        chain = chain.then(() => handle(id, type, body));
      }
    });
  }

  private pendingChangelevel: string | null = null;
  /** Maps changed to after a load. */
  readonly changelevels: string[] = [];

  /** `changelevel` (Utility.cs:966-981): the server loads the map; meanwhile RCON is gone. */
  private changelevel(map: string): void {
    this.changelevels.push(map);
    this.map = map;
    if (this.changelevelMs <= 0) return;
    this.unreachableUntil = Date.now() + this.changelevelMs;
    for (const s of this.sockets) s.destroy();
  }

  /** What the console prints for a command; '' is nothing at all. */
  private async execute(line: string): Promise<string> {
    const [cmd, ...args] = consoleArgs(line);
    switch (cmd) {
      case 'echo':
        return `${args.join(' ')}\n`;
      case 'cvarlist':
        return this.cvarlistText;
      case 'get5_status':
        return `${JSON.stringify(this.status())}\n`;
      case 'status_json':
        return this.statusJson();
      case 'matchzy_addplayer':
      case 'get5_addplayer':
        return this.addPlayer(args);
      case 'matchzy_removeplayer':
      case 'get5_removeplayer':
        return this.removePlayer(args);
      case 'matchzy_remote_log_url':
      case 'get5_remote_log_url': // RemoteLogConfig.cs:9-23
        if (args.length > 0) this.remoteLog.url = args[0];
        return '';
      case 'matchzy_remote_log_header_key':
      case 'get5_remote_log_header_key': // RemoteLogConfig.cs:25-33
        if (args[0]?.trim()) this.remoteLog.key = args[0].trim();
        return '';
      case 'matchzy_remote_log_header_value':
      case 'get5_remote_log_header_value': // RemoteLogConfig.cs:35-43
        if (args[0]?.trim()) this.remoteLog.value = args[0].trim();
        return '';
      case 'get5_endmatch':
      case 'css_endmatch':
      case 'css_forceend':
        // ConsoleCommands.cs:469-479: refused in practice mode, else ResetMatch.
        if (this.practice) return 'Practice mode is active, cannot end the match.\n';
        this.resetMatch();
        return '';
      case 'matchzy_loadmatch_url':
      case 'get5_loadmatch_url':
        return this.loadMatchFromUrl(args);
      default:
        return `Unknown command: ${cmd}\n`;
    }
  }

  /** G5API.cs:95-170: the fields set only once a match is set up stay null (.NET writes nulls). */
  status(): Record<string, unknown> {
    const setUp = this.gamestate !== 'none';
    const team = (t: TeamNo) => ({
      name: (this.config?.[t] as { name?: string })?.name ?? t,
      series_score: 0,
      current_map_score: this.score[t],
      connected_clients: -1, // G5API.cs:143
      ready: false,
      side: (t === 'team1' ? this.team1Side : this.team1Side === 3 ? 2 : 3) === 3 ? 'ct' : 'terrorist',
    });
    return {
      plugin_version: '0.15.0', // G5API.cs:106
      gamestate: this.gamestate,
      paused: false,
      loaded_config_file: setUp ? this.loadedConfigFile : null, // G5API.cs:117-122
      matchid: setUp ? this.liveMatchId : null, // G5API.cs:25, 120 — long?, null when no match
      map_number: setUp ? 0 : null,
      round_number: this.gamestate === 'live' ? this.score.team1 + this.score.team2 : -1, // G5API.cs:31, 164-167
      round_time: null,
      team1: this.isMatchSetup ? team('team1') : null, // G5API.cs:124-157
      team2: this.isMatchSetup ? team('team2') : null,
      maps: this.isMatchLive || this.postGame ? [this.map] : null, // G5API.cs:159-162
    };
  }

  private loadedConfigFile = '';

  /**
   * MatchManagement.cs:85-146 LoadMatchFromURL: refused while a match is set up; fetches the URL
   * with the header when both are given (`ArgCount > 3`), validates and loads.
   */
  private async loadMatchFromUrl(args: string[]): Promise<string> {
    if (this.ignoreLoad) return '';
    if (this.isMatchSetup)
      return `A match is already setup with id: ${this.liveMatchId}, cannot load a new match!\n`; // :90-96
    const [url, headerName, headerValue] = args;
    const headers: Record<string, string> = {};
    if (args.length >= 3 && headerName) headers[headerName] = headerValue; // :99-100, 114-117
    const res = await fetch(url, { headers });
    this.configFetches.push({ url, headers, status: res.status });
    if (!res.ok) return `HTTP request failed with status code: ${res.status}\n`; // :134-139
    const config = (await res.json()) as Record<string, unknown>;
    const error = this.validate(config);
    if (error) {
      // :126-131 load failed → ResetMatch
      this.resetMatch();
      return 'Match load failed! Resetting current match\n';
    }
    // :267-270 liveMatchId = (long)matchid
    this.liveMatchId = config.matchid as number;
    this.config = config;
    this.loadedConfigFile = url;
    // :283-290 matchConfig = new() — the remote log settings given before the load are gone
    // (ResetMatch keeps them, Utility.cs:469-475; a load does not) …
    this.remoteLog = { url: '', key: '', value: '' };
    // … and the config's cvars are applied before warm-up (:317 GetCvarValues, :358-359
    // ExecuteChangedConvars), so the events go where the config says.
    for (const [name, value] of Object.entries((config.cvars ?? {}) as Record<string, string>))
      await this.execute(`${name} "${value}"`);
    this.isMatchSetup = true; // :363
    this.score = { team1: 0, team2: 0 };
    this.postGame = false;
    this.isMatchLive = false;
    // :342-349 a server on another map changes level (ChangeMap with delay 0).
    const map = (config.maplist as string[])[0];
    if (map !== this.map) this.pendingChangelevel = map;
    return '';
  }

  /** MatchManagement.cs:148-252 ValidateMatchJsonStructure (the checks our config can hit). */
  private validate(config: Record<string, unknown>): string {
    for (const field of ['maplist', 'team1', 'team2', 'num_maps'])
      if (config[field] === undefined) return `Missing mandatory field: ${field}`;
    for (const field of ['matchid', 'players_per_team', 'min_players_to_ready', 'num_maps']) {
      const v = config[field];
      if (v !== undefined && !/^-?\d+$/.test(String(v))) return `${field} should be an integer!`;
    }
    // MatchManagement.cs:269 `(long)matchid`; the int.TryParse at :173 limits it to 32 bits.
    const matchid = config.matchid as number;
    if (typeof matchid !== 'number' || matchid < 0 || matchid > 2 ** 31 - 1)
      return 'matchid should be an integer!';
    for (const team of ['team1', 'team2'])
      if (typeof (config[team] as { players?: unknown }).players !== 'object')
        return `${team} should have 'players' JSON!`;
    return '';
  }
}
