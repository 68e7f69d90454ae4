/**
 * The voice-server interface (TeamSpeak): who is connected, private bot messages and presence.
 * Two implementations: `TeamSpeakVoiceServer` (ServerQuery over raw TCP or SSH, when TEAMSPEAK_HOST is set)
 * and `SimulatedVoiceServer` (embedded default; identities connect through the dev tools and the
 * bot's messages land in the dev outbox). The chosen one is `ctx.voice`.
 */
import type { VoiceIdentity } from '@openpug/shared';
import { AppError } from '../../lib/errors';

export type { VoiceIdentity };

/** An identity connected to or left the voice server (first connection / last disconnection). */
export interface VoicePresenceEvent {
  id: string;
  name: string;
  online: boolean;
}

export class VoiceIdentityNotConnectedError extends Error {
  constructor(readonly identityId: string) {
    super(`voice identity ${identityId} is not connected`);
  }
}

/**
 * The voice server could not answer (not connected, a command timed out, flood back-off): a 503
 * with its own catalogue key; `message` says why for the log.
 */
export class VoiceServerUnavailableError extends AppError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(503, 'VOICE_SERVER_UNAVAILABLE');
    this.message = `voice server unavailable: ${reason}`;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A channel of the voice server (TeamSpeak: cid, pid = parent cid, 0 at the top). */
export interface VoiceChannel {
  id: number;
  parentId: number;
  name: string;
}

/** Where one connected client (TeamSpeak: clid) of an identity is: its channel. */
export interface VoiceClientPlace {
  clientId: number;
  identityId: string;
  channelId: number;
}

/** A sibling of the new channel has that name already (TeamSpeak error 771). */
export class VoiceChannelNameInUseError extends Error {
  constructor(readonly channelName: string) {
    super(`voice channel name in use: ${channelName}`);
  }
}

/** The channel does not exist (any more) (TeamSpeak error 768, e.g. after a server restart). */
export class VoiceChannelMissingError extends Error {
  constructor(readonly channelId: number) {
    super(`voice channel ${channelId} does not exist`);
  }
}

export interface VoiceServer {
  readonly kind: 'simulated' | 'teamspeak';
  /** Connects (TeamSpeak: in the background, retrying); called when the app is ready. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Connected voice identities (real clients only, never query clients), one entry per identity. */
  listClients(): Promise<VoiceIdentity[]>;
  isConnected(identityId: string): Promise<boolean>;
  /** A private text message from the bot; throws VoiceIdentityNotConnectedError when not connected. */
  sendPrivateMessage(identityId: string, text: string): Promise<void>;
  onPresence(fn: (event: VoicePresenceEvent) => void | Promise<void>): void;
  /** The channel under which match channels are made; null: match channels are off. */
  matchChannelParent(): number | null;
  listChannels(): Promise<VoiceChannel[]>;
  /**
   * A semi-permanent channel under `parentId` (kept while empty, gone at a voice-server restart);
   * its id. Throws VoiceChannelNameInUseError when a sibling has the name.
   */
  createChannel(name: string, parentId: number): Promise<number>;
  /** Deletes the channel even with clients in it (they go to the default channel); gone already is fine. */
  deleteChannel(channelId: number): Promise<void>;
  /** Every connected voice client and its channel. */
  clientPlaces(): Promise<VoiceClientPlace[]>;
  /**
   * Moves the clients into the channel; clients gone meanwhile are skipped. Throws
   * VoiceChannelMissingError when the channel does not exist.
   */
  moveClients(clientIds: number[], channelId: number): Promise<void>;
}

/** Shared presence fan-out for both implementations. */
export class PresenceEmitter {
  private readonly listeners: Array<(event: VoicePresenceEvent) => void | Promise<void>> = [];
  constructor(private readonly log: { error(obj: object, msg: string): void } = console) {}
  on(fn: (event: VoicePresenceEvent) => void | Promise<void>): void {
    this.listeners.push(fn);
  }
  emit(event: VoicePresenceEvent): void {
    for (const fn of this.listeners) {
      Promise.resolve()
        .then(() => fn(event))
        .catch((err) => this.log.error({ err }, 'voice presence listener failed'));
    }
  }
}
