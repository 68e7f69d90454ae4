/**
 * In-process domain events between modules, so a module never reaches into another's tables.
 * Each module declares the events it emits by augmenting DomainEvents:
 *
 *   declare module '../../events' { interface DomainEvents { 'queue.joined': { userId: string } } }
 *
 * Handlers run in registration order and are awaited; a failing handler is logged and does not
 * stop the others. Cross-instance delivery to browsers goes through the socket hub, not here.
 */
import type { UserStatusPatch } from '@openpug/shared';

export interface DomainEvents {
  /** A module changed part of a user's live status (queue, match, voice flags). */
  'status.patch': { userId: string; patch: UserStatusPatch };
  /**
   * This instance hears the other instances again after its Redis connection was lost and came
   * back (realtime/hub.ts useRedisAdapter): what they broadcast in between never arrived here, so
   * a module sends this instance's sockets what may have changed meanwhile (`toLocal`).
   */
  'realtime.rejoined': Record<string, never>;
}

type Handler<K extends keyof DomainEvents> = (payload: DomainEvents[K]) => void | Promise<void>;

export class EventBus {
  private readonly handlers = new Map<keyof DomainEvents, Handler<never>[]>();
  constructor(private readonly log: { error(obj: object, msg: string): void } = console) {}

  on<K extends keyof DomainEvents>(event: K, handler: Handler<K>): void {
    const list = this.handlers.get(event) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(event, list);
  }

  async emit<K extends keyof DomainEvents>(event: K, payload: DomainEvents[K]): Promise<void> {
    for (const handler of this.handlers.get(event) ?? []) {
      try {
        await (handler as Handler<K>)(payload);
      } catch (err) {
        this.log.error({ err, event }, 'domain event handler failed');
      }
    }
  }
}
