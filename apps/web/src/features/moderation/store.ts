/**
 * The signed-in player's running ban and mute (GET /api/moderation/me), kept current by
 * PRIVATE_MODERATION_UPDATE. Loaded once per signed-in user by the first component that asks.
 */
import type { ActiveSanction, ModerationState } from '@openpug/shared';
import { useEffect } from 'react';
import { create } from 'zustand';
import { useNow } from '../../ui/useNow';
import { api } from '../api';
import { useSession } from '../session';
import { useSocketEvent, useSocketState } from '../socket';
import { runningOf } from './rules';

interface ModerationView {
  /** Whose state this is; a new sign-in loads again. */
  userId: string | null;
  state: ModerationState | null;
}

export const useModeration = create<ModerationView>(() => ({ userId: null, state: null }));

/**
 * The ban that ended this tab's session, for the login page: a ban signs the player out
 * (docs/contract.md §4, Bans) right after PRIVATE_MODERATION_UPDATE told the tab why, and every
 * sign-in while it runs answers 403 BANNED with it. Kept in memory only; a sign-in clears it.
 */
export const useSignInBan = create<{ ban: ActiveSanction | null }>(() => ({ ban: null }));
export const rememberSignInBan = (ban: ActiveSanction | null) => useSignInBan.setState({ ban });

let loading: { userId: string; promise: Promise<void> } | null = null;

export function loadModeration(userId: string): Promise<void> {
  if (loading?.userId === userId) return loading.promise;
  const promise = api
    .get<ModerationState>('/moderation/me', { silent: true })
    .then((state) => useModeration.setState({ userId, state }))
    .catch(() => undefined)
    .finally(() => {
      if (loading?.promise === promise) loading = null;
    });
  loading = { userId, promise };
  return promise;
}

/** Keeps the store current while mounted: loads at sign-in and on reconnect, follows the socket. */
function useModerationSync(): void {
  const userId = useSession((s) => s.user?._id ?? null);
  const authenticated = useSocketState((s) => s.authenticated);
  useEffect(() => {
    if (userId && authenticated) void loadModeration(userId);
  }, [userId, authenticated]);
  useSocketEvent('PRIVATE_MODERATION_UPDATE', (state) => {
    if (userId) useModeration.setState({ userId, state });
    if (state.ban) rememberSignInBan(state.ban);
  });
}

/** The signed-in player's running ban and mute (each gone by itself at its end; null = none). */
export function useRunningSanctions(): { ban: ActiveSanction | null; mute: ActiveSanction | null } {
  useModerationSync();
  const userId = useSession((s) => s.user?._id ?? null);
  const state = useModeration((s) => (s.userId === userId ? s.state : null));
  const timed = state?.ban?.endsAt != null || state?.mute?.endsAt != null;
  const now = useNow(1000, timed);
  return { ban: runningOf(state, 'ban', now), mute: runningOf(state, 'mute', now) };
}
