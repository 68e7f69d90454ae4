/**
 * The popup hands the opener a signed, short-lived ticket (never the bare SteamID): an HS256 JWT
 * of type `steam-ticket` with the SteamID64 as subject, valid TICKET_TTL_MS. Session tokens and
 * tickets are not interchangeable (different `typ`).
 */
import { jwtVerify, SignJWT } from 'jose';

export const TICKET_TTL_MS = 5 * 60_000;

export async function signSteamTicket(secret: Uint8Array, steamId: string, now: number): Promise<string> {
  return new SignJWT({ typ: 'steam-ticket' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(steamId)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + TICKET_TTL_MS) / 1000))
    .sign(secret);
}

/** The SteamID64, or null for a tampered, foreign or expired ticket. */
export async function verifySteamTicket(
  secret: Uint8Array,
  ticket: string,
  now: number,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(ticket, secret, {
      algorithms: ['HS256'],
      currentDate: new Date(now),
    });
    if (payload.typ !== 'steam-ticket' || typeof payload.sub !== 'string' || !/^\d{17}$/.test(payload.sub))
      return null;
    return payload.sub;
  } catch {
    return null;
  }
}
