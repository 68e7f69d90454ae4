/**
 * The embedded voice server: identities "connect" through the dev tools
 * (`POST /api/dev/voice/identities`), the bot's private messages are handed to `deliver` (the dev
 * outbox, channel 'voice', `to` = identity id). State lives in memory of this instance.
 */
import { randomBytes } from 'node:crypto';
import {
  PresenceEmitter,
  type VoiceIdentity,
  VoiceIdentityNotConnectedError,
  type VoiceServer,
} from './types';

export class SimulatedVoiceServer implements VoiceServer {
  readonly kind = 'simulated' as const;
  private readonly identities = new Map<string, string>();
  private readonly presence: PresenceEmitter;

  constructor(
    private readonly deliver: (identityId: string, text: string) => Promise<void>,
    log?: { error(obj: object, msg: string): void },
  ) {
    this.presence = new PresenceEmitter(log);
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {}

  /** A new identity connects; ids look like TeamSpeak unique identifiers (base64 of 20 bytes). */
  connect(name: string): VoiceIdentity {
    const id = randomBytes(20).toString('base64');
    this.identities.set(id, name);
    this.presence.emit({ id, name, online: true });
    return { id, name };
  }

  disconnect(id: string): boolean {
    const name = this.identities.get(id);
    if (name === undefined) return false;
    this.identities.delete(id);
    this.presence.emit({ id, name, online: false });
    return true;
  }

  async listClients(): Promise<VoiceIdentity[]> {
    return [...this.identities].map(([id, name]) => ({ id, name }));
  }

  async isConnected(id: string): Promise<boolean> {
    return this.identities.has(id);
  }

  async sendPrivateMessage(id: string, text: string): Promise<void> {
    if (!this.identities.has(id)) throw new VoiceIdentityNotConnectedError(id);
    await this.deliver(id, text);
  }

  onPresence(fn: Parameters<VoiceServer['onPresence']>[0]): void {
    this.presence.on(fn);
  }
}
