/** SteamID64 ↔ the other forms players and game servers use. */
const STEAMID64_BASE = 76561197960265728n;

export const isSteamId64 = (id: string) => /^\d{17}$/.test(id) && BigInt(id) > STEAMID64_BASE;

/** Legacy form STEAM_0:Y:Z (Y = lowest bit of the account id, Z = the rest), used by CS servers. */
export function csgoIdOf(id64: string): string {
  const account = BigInt(id64) - STEAMID64_BASE;
  return `STEAM_0:${account & 1n}:${account >> 1n}`;
}

export const steamUrlOf = (id64: string) => `https://steamcommunity.com/profiles/${id64}`;
