/**
 * The connected players from CS2's own answers. The samples are a real CS2 1.41.2.8 server's
 * `status_json` and `status` (build 2000696), as kept in the test fixture of a public CS2 RCON
 * client (see cs2-status.ts); `clients` is shortened to one entry of each kind, the numbers and
 * strings as the server printed them.
 */
import { describe, expect, it } from 'vitest';
import { parseCs2StatusJson, steam3ToSteam64 } from './cs2-status';

const STATUS_JSON = `{
	"frametime_ms": 15.625260,
	"process_uptime": 2718,
	"build_version": 2000696,
	"build_source_revision": "10299884",
	"server":
	{
		"hibernating": false,
		"cpu_usage": 0.080566,
		"clients_bot": 12,
		"clients_human": 1,
		"clients_proxies": 0,
		"map": "de_dust2",
		"addon": "",
		"udp_port": 27015,
		"clients":
		[
			{
				"steamid64": "0",
				"steamid": "[I:0:0]",
				"bot": false,
				"name": ""
			},
			{
				"steamid64": "76561197997837923",
				"steamid": "[U:1:37572195]",
				"bot": false,
				"name": "LarryCucumber"
			},
			{
				"steamid64": "90071996842377218",
				"steamid": "[A:1:2:1]",
				"bot": true,
				"name": "Rebel"
			}
		],
		"gc_status": "GCConnectionStatus_HAVE_SESSION",
		"steam_loggedon": true,
		"steamid64": "85568392935611682",
		"steamid": "[G:1:15572258]"
	}
}
`;

const STATUS_TEXT = `Server:  Running [0.0.0.0:27015]
Client:  Disconnected
----- Status -----
@ Current  :  game
source   : console
hostname : Larry's Server
spawn    : 3
version  : 1.41.2.8/14128 10603 secure  public
steamid  : [G:1:15572258] (85568392935611682)
udp/ip   : 0.0.0.0:27015 (public 141.151.73.222:27015)
os/type  : Linux dedicated
players  : 0 humans, 5 bots (0 max) (hibernating) (unreserved)
---------spawngroups----
loaded spawngroup(  1)  : SV:  [1: de_inferno | main lump | mapload]
---------players--------
  id     time ping loss      state   rate adr name
65535 [NoChan]    0    0 challenging      0unknown ''
   2      BOT    0    0     active      0 'Rebel'
#end
`;

describe('CS2 status_json', () => {
  it('lists the human players by SteamID64: no bots, no slot still connecting, not the server itself', () => {
    expect(parseCs2StatusJson(STATUS_JSON)).toEqual(['76561197997837923']);
  });

  it('an empty server, an answer with text around it, and SteamID3 when steamid64 is missing', () => {
    expect(parseCs2StatusJson('{"server":{"clients":[]}}')).toEqual([]);
    expect(parseCs2StatusJson(`status_json\n${STATUS_JSON}\nL 01/01/2026 - 12:00:00: x`)).toEqual([
      '76561197997837923',
    ]);
    expect(parseCs2StatusJson('{"server":{"clients":[{"steamid":"[U:1:37572195]","bot":false}]}}')).toEqual([
      '76561197997837923',
    ]);
    expect(steam3ToSteam64('[U:1:37572195]')).toBe('76561197997837923');
    expect(steam3ToSteam64('[A:1:2:1]')).toBeNull();
  });

  it('is not fooled by `status` (no SteamIDs in CS2), another game or garbage', () => {
    expect(parseCs2StatusJson(STATUS_TEXT)).toBeNull();
    expect(parseCs2StatusJson('Unknown command "status_json"')).toBeNull();
    expect(parseCs2StatusJson('{"server": 1}')).toBeNull();
    expect(parseCs2StatusJson('{')).toBeNull();
  });
});
