/**
 * The embedded voice server: identities "connect" through the dev tools
 * (`POST /api/dev/voice/identities`), the bot's private messages are handed to `deliver` (the dev
 * outbox, channel 'voice', `to` = identity id). State lives in memory of this instance.
 *
 * Channels behave as TeamSpeak's do (see fake-serverquery.ts for the sources): a client enters
 * the default channel, channel names are unique among siblings, a deleted channel's clients go
 * back to the default channel. It has a "Matches" channel of its own, so match channels are on.
 */
import { randomBytes } from 'node:crypto';
import {
  PresenceEmitter,
  type VoiceChannel,
  VoiceChannelMissingError,
  VoiceChannelNameInUseError,
  type VoiceClientPlace,
  type VoiceIdentity,
  VoiceIdentityNotConnectedError,
  type VoiceServer,
} from './types';

const LOBBY = 1;
/** The parent of match channels in the simulator. */
export const SIMULATED_MATCH_PARENT = 2;

interface SimClient {
  name: string;
  clientId: number;
  channelId: number;
}

export class SimulatedVoiceServer implements VoiceServer {
  readonly kind = 'simulated' as const;
  private readonly identities = new Map<string, SimClient>();
  private readonly channels = new Map<number, VoiceChannel>([
    [LOBBY, { id: LOBBY, parentId: 0, name: 'Lobby' }],
    [SIMULATED_MATCH_PARENT, { id: SIMULATED_MATCH_PARENT, parentId: 0, name: 'Matches' }],
  ]);
  private nextClientId = 1;
  private nextChannelId = 3;
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
    this.identities.set(id, { name, clientId: this.nextClientId++, channelId: LOBBY });
    this.presence.emit({ id, name, online: true });
    return { id, name };
  }

  disconnect(id: string): boolean {
    const client = this.identities.get(id);
    if (client === undefined) return false;
    this.identities.delete(id);
    this.presence.emit({ id, name: client.name, online: false });
    return true;
  }

  /** The channel an identity sits in (dev tools), or null when it is not connected. */
  channelOf(id: string): VoiceChannel | null {
    const client = this.identities.get(id);
    return client ? (this.channels.get(client.channelId) ?? null) : null;
  }

  async listClients(): Promise<VoiceIdentity[]> {
    return [...this.identities].map(([id, c]) => ({ id, name: c.name }));
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

  matchChannelParent(): number | null {
    return SIMULATED_MATCH_PARENT;
  }

  async listChannels(): Promise<VoiceChannel[]> {
    return [...this.channels.values()].map((c) => ({ ...c }));
  }

  async createChannel(name: string, parentId: number): Promise<number> {
    if (!this.channels.has(parentId)) throw new VoiceChannelMissingError(parentId);
    for (const c of this.channels.values())
      if (c.parentId === parentId && c.name === name) throw new VoiceChannelNameInUseError(name);
    const id = this.nextChannelId++;
    this.channels.set(id, { id, parentId, name });
    return id;
  }

  async deleteChannel(channelId: number): Promise<void> {
    if (channelId === LOBBY || !this.channels.has(channelId)) return;
    const gone = new Set([channelId]);
    // Sub-channels go with their parent, as on TeamSpeak.
    for (let grew = true; grew; ) {
      grew = false;
      for (const c of this.channels.values())
        if (gone.has(c.parentId) && !gone.has(c.id)) {
          gone.add(c.id);
          grew = true;
        }
    }
    for (const id of gone) this.channels.delete(id);
    for (const client of this.identities.values()) if (gone.has(client.channelId)) client.channelId = LOBBY;
  }

  async clientPlaces(): Promise<VoiceClientPlace[]> {
    return [...this.identities].map(([identityId, c]) => ({
      clientId: c.clientId,
      identityId,
      channelId: c.channelId,
    }));
  }

  async moveClients(clientIds: number[], channelId: number): Promise<void> {
    if (!this.channels.has(channelId)) throw new VoiceChannelMissingError(channelId);
    const wanted = new Set(clientIds);
    for (const client of this.identities.values())
      if (wanted.has(client.clientId)) client.channelId = channelId;
  }

  /** Dev tools: the identity walks into another channel by itself. */
  moveIdentity(id: string, channelId: number): boolean {
    const client = this.identities.get(id);
    if (!client || !this.channels.has(channelId)) return false;
    client.channelId = channelId;
    return true;
  }
}
