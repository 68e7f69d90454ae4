/**
 * Room moderation of the Client-Server API (spec v1.11 §10.2.x "Room membership" → "Leaving
 * rooms"/"Banning users in a room", and §10.22 "Reporting content"):
 *
 * - POST /rooms/{roomId}/kick, /ban, /unban: `{user_id, reason?}` → `{}`; the target's membership
 *   becomes `leave` (kick, unban) or `ban`, with `reason` in the event content.
 * - POST /rooms/{roomId}/report/{eventId}: `{reason?, score?}` → `{}`; the report goes to the
 *   product's report sink (openpug's admin reports queue, see ../modules/reports).
 *
 * The checks and their order follow Synapse 1.163 so that the conformance suite passes on both:
 * first the handler's membership-state checks (synapse/handlers/room_member.py,
 * update_membership_locked, "if action == 'unban' and old_membership != 'ban'" … "if action ==
 * 'kick': raise AuthError(403, 'The target user is not in the room')"), then the room version's
 * auth rules (synapse/event_auth.py, _is_membership_change_allowed: the sender must be joined;
 * `leave` of a banned target needs the `ban` level; a kick needs the `kick` level and a level above
 * the target's; a ban needs the `ban` level and a level above the target's). Every refusal is 403
 * M_FORBIDDEN except the state ones, which Synapse answers as 403 M_BAD_STATE.
 */
import type { Homeserver } from './context';
import { MatrixError, mxBadJson, mxBadState, mxForbidden, mxNotFound } from './errors';
import { appendEvents, eventById, type Json, membershipOf, stateEvent } from './events';
import { levelOf, powerLevels, readableUpTo, roomExists, userLevel } from './rooms';
import type { Session } from './users';

export type ModerationAction = 'kick' | 'ban' | 'unban';

/**
 * A user id as Synapse's UserID.from_string takes it (synapse/types/__init__.py): a missing one is
 * 400 M_MISSING_PARAM (assert_params_in_dict), one without `@` or `:` 400 M_INVALID_PARAM. A
 * non-string is 400 M_INVALID_PARAM here (Synapse answers 500 for it).
 */
function targetOf(body: Json): string {
  const id = body.user_id;
  if (id === undefined) throw new MatrixError(400, 'M_MISSING_PARAM', "Missing params: ['user_id']");
  if (typeof id !== 'string') throw new MatrixError(400, 'M_INVALID_PARAM', 'user_id must be a string');
  if (!id.startsWith('@'))
    throw new MatrixError(400, 'M_INVALID_PARAM', "Expected UserID string to start with '@'");
  if (!id.includes(':'))
    throw new MatrixError(400, 'M_INVALID_PARAM', "Expected UserID of the form '@localname:domain'");
  return id;
}

/**
 * The `reason` the spec defines as a string. Synapse copies any JSON value into the event; a
 * non-string is refused here (400 M_BAD_JSON) so a client never reads a number as a reason.
 */
function reasonOf(body: Json): string | undefined {
  if (body.reason === undefined) return undefined;
  if (typeof body.reason !== 'string') throw mxBadJson('reason must be a string');
  return body.reason;
}

/**
 * Kicks, bans or unbans `body.user_id` in the room. A repeated ban is a new ban event, as on
 * Synapse (its duplicate check compares the request content without `membership` to the stored
 * content with it, so it never matches a ban).
 */
export async function moderateMember(
  hs: Homeserver,
  session: Session,
  roomId: string,
  action: ModerationAction,
  body: Json,
): Promise<void> {
  const me = session.userId;
  const target = targetOf(body);
  const reason = reasonOf(body);
  // Synapse: a leave (kick, unban) in a room it is not in is 404 M_UNKNOWN "Not a known room"; a
  // ban is refused by the event builder as 403 M_FORBIDDEN "Unknown room".
  if (!(await roomExists(hs, roomId))) {
    if (action === 'ban') throw mxForbidden('Unknown room');
    throw new MatrixError(404, 'M_UNKNOWN', 'Not a known room');
  }
  const membership = action === 'ban' ? 'ban' : 'leave';
  const content: Json = { membership, ...(reason !== undefined ? { reason } : {}) };

  // 1. The target's current membership (room_member.py, update_membership_locked).
  const old = await stateEvent(hs, roomId, 'm.room.member', target);
  const oldMembership = old ? String(old.content.membership ?? '') : null;
  if (action === 'unban' && oldMembership !== 'ban')
    throw mxBadState(`Cannot unban user who was not banned (membership=${oldMembership})`);
  if (oldMembership === 'ban' && action === 'kick') throw mxBadState('Cannot kick user who was banned');
  if (action === 'kick' && (!old || oldMembership === 'ban' || oldMembership === 'leave'))
    throw mxForbidden('The target user is not in the room');

  // 2. The auth rules (event_auth.py, _is_membership_change_allowed).
  if ((await membershipOf(hs, roomId, me))?.membership !== 'join')
    throw mxForbidden(`${me} not in room ${roomId}.`);
  const pl = await powerLevels(hs, roomId);
  const mine = userLevel(pl, me);
  const theirs = userLevel(pl, target);
  const banLevel = levelOf(pl.ban, 50);
  if (action === 'ban') {
    if (mine < banLevel) throw mxForbidden("You don't have permission to ban");
    if (mine <= theirs) throw mxForbidden("You don't have permission to ban this user");
  } else if (oldMembership === 'ban') {
    if (mine < banLevel) throw mxForbidden(`You cannot unban user ${target}.`);
  } else if (target !== me && (mine < levelOf(pl.kick, 50) || mine <= theirs)) {
    throw mxForbidden(`You cannot kick user ${target}.`);
  }
  await appendEvents(hs, roomId, [{ type: 'm.room.member', stateKey: target, sender: me, content }]);
}

/** A report of an event, as the homeserver hands it to the product. */
export interface EventReport {
  reporter: string;
  roomId: string;
  eventId: string;
  /** The reported event's sender and content (as the reporter can read it). */
  sender: string;
  type: string;
  content: Json;
  reason: string | undefined;
  score: number | undefined;
}

/**
 * POST /rooms/{roomId}/report/{eventId} (synapse/rest/client/reporting.py, ReportEventRestServlet):
 * `reason` must be a string and `score` an integer (400 M_BAD_JSON); an event that does not exist,
 * is in another room or that the reporter may not read is 404 M_NOT_FOUND with the same message,
 * so a report cannot probe for events. A redacted event can be reported (it is read redacted).
 */
export async function reportEvent(
  hs: Homeserver,
  session: Session,
  roomId: string,
  eventId: string,
  body: Json,
): Promise<void> {
  if (body.reason !== undefined && typeof body.reason !== 'string')
    throw mxBadJson("Param 'reason' must be a string");
  if (body.score !== undefined && !Number.isInteger(body.score))
    throw mxBadJson("Param 'score' must be an integer");
  const notFound = () =>
    mxNotFound("Unable to report event: it does not exist or you aren't able to see it.");
  let upTo: number;
  try {
    upTo = await readableUpTo(hs, roomId, session.userId);
  } catch {
    throw notFound();
  }
  const event = await eventById(hs, eventId);
  if (!event || event.roomId !== roomId || event.stream > upTo) throw notFound();
  await hs.reportSink({
    reporter: session.userId,
    roomId,
    eventId,
    sender: event.sender,
    type: event.type,
    content: event.content,
    reason: body.reason as string | undefined,
    score: body.score as number | undefined,
  });
}
