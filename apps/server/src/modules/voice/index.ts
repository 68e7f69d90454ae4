/**
 * Voice module entry: picks the voice server (ServerQuery over raw TCP or SSH when TEAMSPEAK_HOST
 * is set, else the simulator) and, as a plugin, starts/stops it and turns identity presence into
 * `status.patch` {teamSpeak} for the linked user.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { findUserByTeamSpeakId } from '../accounts/service';
import { storeOutboxMessage } from '../mail/service';
import { armCleanup, closeMatchChannels, voiceChannelsJob, voiceCleanupJob } from './channels';
import { TeamSpeakVoiceServer } from './serverquery';
import { SimulatedVoiceServer } from './simulated';
import type { VoiceServer } from './types';

export { openVoiceChannels, voiceStateOf } from './channels';
export { SimulatedVoiceServer } from './simulated';
export { VoiceIdentityNotConnectedError, type VoiceServer } from './types';

/** The voice module's per-app state (`ctx.state.voice`). */
export interface VoiceModuleState {
  /** Matches whose team channels are being synced now (channels.ts: one run at a time). */
  syncing: Set<string>;
}

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export function createVoiceServer(
  config: Config,
  db: Db,
  log: Log,
  now: () => number = Date.now,
): VoiceServer {
  if (config.TEAMSPEAK_HOST) {
    const protocol = config.TEAMSPEAK_QUERY_PROTOCOL;
    return new TeamSpeakVoiceServer({
      protocol,
      host: config.TEAMSPEAK_HOST,
      port: config.TEAMSPEAK_QUERY_PORT ?? (protocol === 'ssh' ? 10022 : 10011),
      sshHostKey: config.TEAMSPEAK_SSH_HOST_KEY,
      timeoutMs: config.TEAMSPEAK_QUERY_TIMEOUT_MS,
      allowlisted: config.TEAMSPEAK_QUERY_ALLOWLISTED,
      username: config.TEAMSPEAK_USER,
      password: config.TEAMSPEAK_PASSWORD,
      sid: config.TEAMSPEAK_SID,
      channelParent: config.TEAMSPEAK_CHANNEL_PARENT,
      nickname: config.TEAMSPEAK_NICKNAME,
      keepaliveMs: config.TEAMSPEAK_KEEPALIVE_MS,
      log,
    });
  }
  return new SimulatedVoiceServer(
    (identityId, text) =>
      storeOutboxMessage(db, { channel: 'voice', to: identityId, subject: 'TeamSpeak', text }, now()),
    log,
  );
}

/** Whether the user's linked identity is connected to the voice server right now. */
export async function isOnVoiceServer(
  ctx: AppContext,
  teamSpeakId: string | null | undefined,
): Promise<boolean> {
  if (!teamSpeakId) return false;
  return ctx.voice.isConnected(teamSpeakId);
}

export function voiceModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.voice.onPresence(async (event) => {
      const user = await findUserByTeamSpeakId(ctx.db, event.id);
      if (!user) return;
      await ctx.bus.emit('status.patch', { userId: user.id, patch: { teamSpeak: event.online } });
    });
    ctx.jobs.register(voiceChannelsJob, voiceCleanupJob);
    // Not awaited: a slow voice server must not hold up the other match.ended listeners.
    ctx.bus.on('match.ended', ({ matchId }) => {
      closeMatchChannels(ctx, matchId).catch((err) =>
        ctx.log.warn({ err, matchId }, 'match voice channels: close failed'),
      );
    });
    app.addHook('onReady', async () => {
      await ctx.voice.start();
      // Channels of matches that ended while this instance was down (or a delete that failed).
      await armCleanup(ctx, ctx.clock.now());
    });
    app.addHook('onClose', async () => {
      await ctx.voice.close();
    });
  };
}
