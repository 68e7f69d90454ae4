/**
 * The homeserver's moving parts that live in memory: the stream counter (one position for events,
 * receipts and account data, so one sync token covers them all), the sync notifier that wakes
 * long-polling /sync requests, and typing notifications (ephemeral by definition).
 *
 * Single instance only: writes are serialised through one in-process queue and wakeups go to
 * this process's waiters. That is the zero-setup default; several app instances behind a proxy
 * must use Synapse (MATRIX_HOMESERVER_URL), which is what production runs.
 */
import { randomBytes } from 'node:crypto';
import { max } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mxAccountData, mxEvents, mxReceipts } from './schema';

export class Stream {
  /** Highest committed position: everything at or below it is readable. */
  position = 0;
  private next = 0;
  private queue: Promise<unknown> = Promise.resolve();

  async load(db: Db): Promise<void> {
    const [[e], [r], [a]] = await Promise.all([
      db.select({ m: max(mxEvents.stream) }).from(mxEvents),
      db.select({ m: max(mxReceipts.stream) }).from(mxReceipts),
      db.select({ m: max(mxAccountData.stream) }).from(mxAccountData),
    ]);
    this.position = Math.max(Number(e?.m ?? 0), Number(r?.m ?? 0), Number(a?.m ?? 0));
    this.next = this.position;
  }

  /** Runs `fn` after every earlier write; `allocate()` hands out the next positions. */
  write<T>(fn: (allocate: () => number) => Promise<T>): Promise<T> {
    const run = async () => {
      try {
        const result = await fn(() => ++this.next);
        this.position = this.next;
        return result;
      } catch (err) {
        this.next = this.position;
        throw err;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

export class Notifier {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Resolves when `userId` is notified or after `ms`. */
  wait(userId: string, ms: number): { promise: Promise<void>; cancel(): void } {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => {
      done = resolve;
    });
    const set = this.waiters.get(userId) ?? new Set();
    this.waiters.set(userId, set);
    const wake = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && this.waiters.get(userId) === set) this.waiters.delete(userId);
      done();
    };
    const timer = setTimeout(wake, ms);
    set.add(wake);
    return { promise, cancel: wake };
  }

  notify(userIds: Iterable<string>): void {
    for (const id of new Set(userIds)) {
      for (const wake of [...(this.waiters.get(id) ?? [])]) wake();
    }
  }

  wakeAll(): void {
    for (const set of [...this.waiters.values()]) for (const wake of [...set]) wake();
  }
}

/** Typing users per room with expiry; `serial` orders changes for sync tokens. */
export class Typing {
  /** Changes in another process lifetime are unknown: tokens carry this boot id. */
  readonly boot = randomBytes(3).toString('hex');
  serial = 0;
  private readonly rooms = new Map<string, { users: Map<string, number>; changed: number }>();

  constructor(private readonly now: () => number) {}

  set(roomId: string, userId: string, typing: boolean, timeoutMs: number): boolean {
    const room = this.rooms.get(roomId) ?? { users: new Map(), changed: 0 };
    this.rooms.set(roomId, room);
    this.expire(roomId);
    const had = room.users.has(userId);
    if (typing) room.users.set(userId, this.now() + Math.min(Math.max(timeoutMs, 0), 120_000));
    else room.users.delete(userId);
    if (had !== typing) room.changed = ++this.serial;
    return had !== typing;
  }

  /** Drops expired entries; returns true when that changed the room. */
  expire(roomId: string): boolean {
    const room = this.rooms.get(roomId);
    if (!room) return false;
    let changed = false;
    for (const [user, until] of room.users) {
      if (until <= this.now()) {
        room.users.delete(user);
        changed = true;
      }
    }
    if (changed) room.changed = ++this.serial;
    return changed;
  }

  users(roomId: string): string[] {
    this.expire(roomId);
    return [...(this.rooms.get(roomId)?.users.keys() ?? [])];
  }

  changedSince(roomId: string, serial: number): boolean {
    this.expire(roomId);
    return (this.rooms.get(roomId)?.changed ?? 0) > serial;
  }

  /** The earliest expiry among rooms, so a long-poll can wake when someone stops typing. */
  nextExpiry(roomIds: Iterable<string>): number | null {
    let next: number | null = null;
    for (const id of roomIds) {
      for (const until of this.rooms.get(id)?.users.values() ?? [])
        next = next === null ? until : Math.min(next, until);
    }
    return next;
  }
}
