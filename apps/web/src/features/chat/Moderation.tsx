/**
 * Chat moderation in the product's rooms (docs/contract.md §4 Chat, Chat moderation): an admin in
 * the global room and match rooms, a match's captain in its room. A member's menu mutes or unmutes,
 * kicks or bans them; a message's delete button redacts it. Each asks for an optional reason and
 * sends POST /api/chat/moderation; the server decides (a refusal shows in the error dialog).
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ChatModerationAction, productUserIdOf, type UserCard } from '@openpug/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { EventType, type Room, RoomMemberEvent } from 'matrix-js-sdk';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { useSession } from '../session';
import styles from './Chat.module.css';
import { getClient } from './engine';
import { ShieldIcon, TrashIcon } from './icons';
import { moderatesRoom } from './rules';
import { useChat } from './store';

/** The power level the server gives a muted member (SILENCED_LEVEL on the server). */
const MUTED_LEVEL = -1;

/** Whether the signed-in user moderates this room: an admin in a product room, or `captain` in a match room. */
export function useIsModerator(room: Room, captain: boolean): boolean {
  const isAdmin = useSession((s) => s.user?.role === 'ADMIN');
  const globalRoomId = useChat((s) => s.globalRoomId);
  return moderatesRoom({
    isAdmin,
    captain,
    roomId: room.roomId,
    globalRoomId,
    canonicalAlias: room.getCanonicalAlias(),
  });
}

function isMuted(room: Room, userId: string): boolean {
  const users = room.currentState.getStateEvents(EventType.RoomPowerLevels, '')?.getContent()?.users;
  return users?.[userId] === MUTED_LEVEL;
}

interface Pending {
  action: ChatModerationAction;
  userId?: string;
  eventId?: string;
  name: string;
}

function ModerationDialog({ room, pending, onClose }: { room: Room; pending: Pending; onClose(): void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width:600px)');
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: () =>
      api.post('/chat/moderation', {
        roomId: room.roomId,
        action: pending.action,
        ...(pending.userId ? { userId: pending.userId } : {}),
        ...(pending.eventId ? { eventId: pending.eventId } : {}),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      }),
    onSuccess: () => {
      setSuccessMessage({ key: `chat.moderation.done.${pending.action}`, params: { name: pending.name } });
      onClose();
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={phone}
      aria-labelledby="chat-moderation-title"
      data-testid="chat-moderation-dialog"
    >
      <DialogTitle id="chat-moderation-title">
        {t(`chat.moderation.title.${pending.action}`, { name: pending.name })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t(`chat.moderation.explain.${pending.action}`)}</DialogContentText>
        <TextField
          label={t('chat.moderation.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'chat-moderation-reason' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('chat.cancel')}</Button>
        <Button
          variant="contained"
          color={
            pending.action === 'ban' || pending.action === 'kick' || pending.action === 'redact'
              ? 'error'
              : 'primary'
          }
          disabled={send.isPending}
          onClick={() => send.mutate()}
          data-testid="chat-moderation-confirm"
        >
          {t(`chat.moderation.${pending.action}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The moderation menu beside a member's name (not for oneself or non-players such as the bot). */
export function MemberModeration({ room, sender, name }: { room: Room; sender: string; name: string }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const userId = productUserIdOf(sender);
  if (!userId) return null;
  const muted = isMuted(room, sender);
  const pick = (action: ChatModerationAction) => {
    setAnchor(null);
    setPending({ action, userId, name });
  };
  return (
    <>
      <button
        type="button"
        className={styles.moderateButton}
        aria-label={t('chat.moderation.menu', { name })}
        title={t('chat.moderation.menu', { name })}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="chat-moderate"
      >
        <ShieldIcon size={16} />
      </button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => pick(muted ? 'unmute' : 'mute')}
          data-testid={`chat-moderate-${muted ? 'unmute' : 'mute'}`}
        >
          {t(`chat.moderation.${muted ? 'unmute' : 'mute'}`)}
        </MenuItem>
        <MenuItem onClick={() => pick('kick')} data-testid="chat-moderate-kick">
          {t('chat.moderation.kick')}
        </MenuItem>
        <MenuItem onClick={() => pick('ban')} data-testid="chat-moderate-ban">
          {t('chat.moderation.ban')}
        </MenuItem>
      </Menu>
      {pending && <ModerationDialog room={room} pending={pending} onClose={() => setPending(null)} />}
    </>
  );
}

/** A moderator's delete button on a message (any sender). */
export function RedactButton({ room, eventId, name }: { room: Room; eventId: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={styles.redactButton}
        aria-label={t('chat.moderation.redact')}
        title={t('chat.moderation.redact')}
        onClick={() => setOpen(true)}
        data-testid="chat-redact"
      >
        <TrashIcon size={16} />
      </button>
      {open && (
        <ModerationDialog
          room={room}
          pending={{ action: 'redact', eventId, name }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** The room's banned members (kept current), for a moderator's unban list. */
function useBanned(room: Room): { userId: string; name: string }[] {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const c = getClient();
    if (!c) return;
    const bump = (_e: unknown, member: { roomId: string }) => {
      if (member.roomId === room.roomId) setVersion((v) => v + 1);
    };
    c.on(RoomMemberEvent.Membership, bump);
    return () => {
      c.off(RoomMemberEvent.Membership, bump);
    };
  }, [room]);
  return room.getMembersWithMembership('ban').map((m) => ({ userId: m.userId, name: m.name }));
}

/** In a moderated room's banner: the banned members, each with Unban (nothing while nobody is banned). */
export function BannedMembers({ room, captain }: { room: Room; captain: boolean }) {
  const { t } = useTranslation();
  const moderator = useIsModerator(room, captain);
  const banned = useBanned(room);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const players = banned.filter((b) => productUserIdOf(b.userId));
  if (!moderator || players.length === 0) return null;
  return (
    <>
      <button
        type="button"
        className={styles.moderateButton}
        aria-label={t('chat.moderation.banned', { count: players.length })}
        title={t('chat.moderation.banned', { count: players.length })}
        onClick={(e) => setAnchor(e.currentTarget)}
        onPointerDown={(e) => e.stopPropagation()}
        data-testid="chat-banned"
      >
        <ShieldIcon size={18} />
        <span className={styles.time}>{players.length}</span>
      </button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {players.map((b) => (
          <BannedItem
            key={b.userId}
            userId={productUserIdOf(b.userId) ?? ''}
            fallback={b.name}
            onPick={(name, userId) => {
              setAnchor(null);
              setPending({ action: 'unban', userId, name });
            }}
          />
        ))}
      </Menu>
      {pending && <ModerationDialog room={room} pending={pending} onClose={() => setPending(null)} />}
    </>
  );
}

/**
 * One banned member: a ban event carries no display name (the Matrix name is the bare id), so the
 * player's name comes from their public user card.
 */
function BannedItem({
  userId,
  fallback,
  onPick,
}: {
  userId: string;
  fallback: string;
  onPick(name: string, userId: string): void;
}) {
  const { t } = useTranslation();
  const card = useQuery({
    queryKey: ['user-card', userId],
    queryFn: ({ signal }) => api.get<UserCard>(`/users/${userId}`, { signal, silent: true }),
    staleTime: 60_000,
  });
  const name = card.data?.name ?? fallback;
  return (
    <MenuItem onClick={() => onPick(name, userId)} data-testid="chat-unban">
      {t('chat.moderation.unbanName', { name })}
    </MenuItem>
  );
}
