/**
 * One chat room (docs/contract.md §2 Chat screen): banner, timeline grouped by day and sender, load more,
 * empty/loading texts, scroll-down button, typing indicator and composer. Used by the floating
 * window, the /chat/:chatId route and the match page (variant 'match': no day headers, no close
 * button, no auto-scroll).
 */
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import { EventType, type MatrixEvent, type Room, RoomEvent, RoomMemberEvent } from 'matrix-js-sdk';
import {
  type HTMLAttributes,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../ui/Logo';
import { dayjs } from '../dates';
import styles from './Chat.module.css';
import { Composer } from './Composer';
import { getClient, loadRoom, roomDisplayName } from './engine';
import { CloseIcon, DownIcon, FileIcon, ReplyIcon } from './icons';
import { ImageViewer, useMediaUrl } from './Media';
import { BannedMembers, MemberModeration, RedactButton, useIsModerator } from './Moderation';
import { CHAT, cleanMessageHtml, emojiOnlyCount, eventDisplay, groupTimeline, typingText } from './rules';
import { markRoomVisible, useChat } from './store';

dayjs.extend(advancedFormat);

export type ChatVariant = 'window' | 'page' | 'match';

/** Re-renders on every change of the room (timeline, receipts, typing, names). */
function useRoomVersion(room: Room | null): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const c = getClient();
    if (!room || !c) return;
    const bump = () => setVersion((v) => v + 1);
    const onTimeline = (_e: MatrixEvent, r: Room | undefined) => r?.roomId === room.roomId && bump();
    const onTyping = (_e: MatrixEvent, member: { roomId: string }) => member.roomId === room.roomId && bump();
    c.on(RoomEvent.Timeline, onTimeline);
    c.on(RoomEvent.LocalEchoUpdated, bump);
    c.on(RoomEvent.Redaction, bump);
    c.on(RoomEvent.Name, bump);
    c.on(RoomMemberEvent.Typing, onTyping);
    c.on(RoomMemberEvent.Name, bump);
    return () => {
      c.off(RoomEvent.Timeline, onTimeline);
      c.off(RoomEvent.LocalEchoUpdated, bump);
      c.off(RoomEvent.Redaction, bump);
      c.off(RoomEvent.Name, bump);
      c.off(RoomMemberEvent.Typing, onTyping);
      c.off(RoomMemberEvent.Name, bump);
    };
  }, [room]);
  return version;
}

/**
 * Read marker at most once every 10 s on activity (docs/contract.md §9): the first activity marks at once, a
 * later one within the 10 s is sent when the window ends.
 */
function useReadMarker(room: Room | null): () => void {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    const c = getClient();
    if (!room || !c || timer.current) return;
    const send = () => {
      timer.current = null;
      last.current = Date.now();
      const events = room.getLiveTimeline().getEvents();
      const lastEvent = [...events].reverse().find((e) => e.getId() && !e.status);
      const id = lastEvent?.getId();
      if (!lastEvent || !id) return;
      // Only a receipt the server has counts: after a late join the latest event is my own join,
      // which matrix-js-sdk marks read by itself, and a message before it would stay unread.
      if (room.getEventReadUpTo(c.getUserId() ?? '', true) === id) return;
      void c
        .setRoomReadMarkers(room.roomId, id, lastEvent)
        .catch((err) => console.error('[chat] read marker', err));
    };
    const wait = last.current + CHAT.readMarkerEveryMs - Date.now();
    if (wait <= 0) send();
    else timer.current = setTimeout(send, wait);
  }, [room]);
}

export function ChatRoom({
  chatId,
  variant,
  onClose,
  bannerProps,
  bannerExtra,
  title,
  captain = false,
}: {
  chatId: string;
  variant: ChatVariant;
  /** The signed-in player captains the match whose room this is (they moderate it). */
  captain?: boolean;
  /** Shown instead of the room's own name (the match page names its chat by the teams). */
  title?: string;
  onClose?: () => void;
  /** Extra props for the banner (the floating window drags by it). */
  bannerProps?: HTMLAttributes<HTMLDivElement>;
  bannerExtra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const synced = useChat((s) => s.matrixSynched);
  const down = useChat((s) => s.chatUnavailable);
  const recoveries = useChat((s) => s.chatRecoveries);
  const [room, setRoom] = useState<Room | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt asks for another load
  useEffect(() => {
    let alive = true;
    setRoom(null);
    setFailed(false);
    if (!synced) return;
    void loadRoom(chatId).then((r) => {
      if (!alive) return;
      if (r) setRoom(r);
      else setFailed(true);
    });
    return () => {
      alive = false;
    };
  }, [chatId, synced, attempt]);
  // A room that failed to load (an outage can be the reason) is loaded again when the chat server returns.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a return from an outage retries
  useEffect(() => {
    if (failed) setAttempt((a) => a + 1);
  }, [recoveries]);
  useEffect(() => {
    if (!room) return;
    markRoomVisible(room.roomId, true);
    return () => markRoomVisible(room.roomId, false);
  }, [room]);
  const name = title ?? (room ? roomDisplayName(room) : '');
  return (
    <section
      className={styles.room}
      data-testid="chat-room"
      data-variant={variant}
      aria-label={name || t('chat.title')}
    >
      <RoomBanner room={room} name={name} variant={variant} onClose={onClose} bannerProps={bannerProps}>
        {room && <BannedMembers room={room} captain={captain} />}
        {bannerExtra}
      </RoomBanner>
      {room && down && <ChatOfflineBar />}
      {room ? (
        <RoomBody room={room} variant={variant} captain={captain} />
      ) : down ? (
        <ChatOfflineNote />
      ) : (
        <div className={styles.centerNote} data-testid="chat-loading">
          {failed ? t('chat.unavailable') : t('chat.loading')}
        </div>
      )}
    </section>
  );
}

/** In place of the loading text while the chat server cannot be reached (docs/contract.md §4 Chat). */
export function ChatOfflineNote() {
  const { t } = useTranslation();
  return (
    <div className={styles.centerNote} role="status" data-testid="chat-offline">
      {t('chat.offline')}
    </div>
  );
}

/** Above an open room's timeline while the chat server cannot be reached: what is shown may be stale. */
export function ChatOfflineBar() {
  const { t } = useTranslation();
  return (
    <div className={styles.offlineBar} role="status" data-testid="chat-offline">
      {t('chat.offline')}
    </div>
  );
}

function RoomBanner({
  room,
  name,
  variant,
  onClose,
  bannerProps,
  children,
}: {
  room: Room | null;
  name: string;
  variant: ChatVariant;
  onClose?: () => void;
  bannerProps?: HTMLAttributes<HTMLDivElement>;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const avatarMxc = room?.currentState.getStateEvents(EventType.RoomAvatar, '')?.getContent()?.url as
    | string
    | undefined;
  const avatar = useMediaUrl(avatarMxc, { width: 64, height: 64 });
  return (
    <div className={styles.banner} {...bannerProps} data-testid="chat-banner">
      <span className={styles.bannerAvatar}>
        {avatar ? <img src={avatar} alt="" /> : <LogoMark size={28} />}
      </span>
      <span className={styles.bannerName} data-testid="chat-room-name">
        {name || t('chat.title')}
      </span>
      {children}
      {variant !== 'match' && onClose && (
        <IconButton
          size="small"
          aria-label={t('chat.close')}
          onClick={onClose}
          onPointerDown={(e) => e.stopPropagation()}
          data-testid="chat-close"
        >
          <CloseIcon size={18} />
        </IconButton>
      )}
    </div>
  );
}

interface Item {
  id: string;
  sender: string;
  ts: number;
  type: string;
  event: MatrixEvent;
}

function RoomBody({ room, variant, captain }: { room: Room; variant: ChatVariant; captain: boolean }) {
  const { t } = useTranslation();
  const moderator = useIsModerator(room, captain);
  const client = getClient();
  const me = client?.getUserId() ?? '';
  const version = useRoomVersion(room);
  const scroller = useRef<HTMLDivElement>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  const [replyTo, setReplyTo] = useState<MatrixEvent | null>(null);
  const [viewer, setViewer] = useState<{ src: string; alt: string } | null>(null);
  const markRead = useReadMarker(room);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the room's change counter
  const events = useMemo(() => room.getLiveTimeline().getEvents().slice(), [room, version]);
  const hasCreate = events.some((e) => e.getType() === EventType.RoomCreate);
  const days = useMemo(
    () =>
      groupTimeline<Item>(
        events
          .filter((e) => !e.isRedaction() && e.getType() !== EventType.Reaction)
          .map((e) => ({
            id: e.getId() ?? e.getTxnId() ?? '',
            sender: e.getSender() ?? '',
            ts: e.getTs(),
            type: e.getType(),
            event: e,
          })),
      ),
    [events],
  );
  const typing = room
    .getMembers()
    .filter((m) => m.typing && m.userId !== me)
    .map((m) => m.name);
  const typingLine = typingText(typing);

  const loadMore = useCallback(async () => {
    const c = getClient();
    if (!c || loadingMore || hasCreate) return;
    const el = scroller.current;
    const before = el ? el.scrollHeight - el.scrollTop : 0;
    setLoadingMore(true);
    try {
      await c.scrollback(room, CHAT.pageSize);
    } catch (err) {
      console.error('[chat] scrollback', err);
    } finally {
      setLoadingMore(false);
      requestAnimationFrame(() => {
        if (el) el.scrollTop = el.scrollHeight - before;
      });
    }
  }, [room, loadingMore, hasCreate]);

  // Keep the view at the bottom: always on open, later only within 400 px (not in match chats).
  const distance = useRef(0);
  const first = useRef(true);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const lastMine = events[events.length - 1]?.getSender() === me;
    if (first.current || lastMine || (variant !== 'match' && distance.current < CHAT.autoScrollBottomPx)) {
      el.scrollTop = el.scrollHeight;
    }
    if (days.length > 0) first.current = false;
  }, [events, days.length, variant, me]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: mark read when new events arrive
  useEffect(() => {
    if (document.visibilityState === 'visible' && document.hasFocus()) markRead();
  }, [events, markRead]);

  // Messages that arrived while the player was in another tab or window were left unread (above):
  // coming back to the open room reads them.
  useEffect(() => {
    const onBack = () => {
      if (document.visibilityState === 'visible') markRead();
    };
    window.addEventListener('focus', onBack);
    document.addEventListener('visibilitychange', onBack);
    return () => {
      window.removeEventListener('focus', onBack);
      document.removeEventListener('visibilitychange', onBack);
    };
  }, [markRead]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    distance.current = el.scrollHeight - el.scrollTop - el.clientHeight;
    setAwayFromBottom(distance.current > 120);
    if (el.scrollTop < CHAT.autoLoadTopPx && !hasCreate && !loadingMore) void loadMore();
    markRead();
  };

  // Nearly empty first page: fetch older history until the view can scroll or the room starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check after each page
  useEffect(() => {
    const el = scroller.current;
    if (el && !hasCreate && !loadingMore && el.scrollHeight <= el.clientHeight + CHAT.autoLoadTopPx)
      void loadMore();
  }, [hasCreate, loadingMore, events.length]);

  return (
    <>
      <div
        className={styles.timeline}
        ref={scroller}
        role="log"
        onScroll={onScroll}
        onPointerMove={markRead}
        onKeyDown={markRead}
        data-testid="chat-timeline"
      >
        {!hasCreate && (
          <div className={styles.loadMore}>
            <button
              type="button"
              onClick={() => void loadMore()}
              disabled={loadingMore}
              aria-busy={loadingMore}
              aria-label={t('chat.loadMore')}
              data-testid="chat-load-more"
            >
              {loadingMore ? (
                <CircularProgress size={14} aria-label={t('chat.loading')} />
              ) : (
                t('chat.loadMore')
              )}
            </button>
          </div>
        )}
        {days.length === 0 && (
          <div className={styles.centerNote} data-testid="chat-empty">
            {hasCreate ? t('chat.empty') : t('chat.loading')}
          </div>
        )}
        {days.map((day) => (
          <div key={day.day}>
            {variant !== 'match' && (
              <div className={styles.dayHeader}>
                <span>{dayjs(day.ts).format('dddd, MMMM Do YYYY')}</span>
              </div>
            )}
            {day.groups.map((group) => (
              <SenderBlock
                key={`${group.sender}-${group.events[0].id}`}
                room={room}
                sender={group.sender}
                mine={group.sender === me}
                moderator={moderator}
                ts={group.ts}
                items={group.events}
                onReply={setReplyTo}
                onOpenImage={(src, alt) => setViewer({ src, alt })}
              />
            ))}
          </div>
        ))}
      </div>
      {awayFromBottom && (
        <button
          type="button"
          className={styles.scrollDown}
          aria-label={t('chat.scrollDown')}
          data-testid="chat-scroll-down"
          onClick={() =>
            scroller.current?.scrollTo({ top: scroller.current.scrollHeight, behavior: 'smooth' })
          }
        >
          <DownIcon size={18} />
        </button>
      )}
      <div className={styles.typing} data-testid="chat-typing" aria-live="polite">
        {typingLine ? t(typingLine.key, typingLine.params) : ''}
      </div>
      <Composer room={room} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} onSent={markRead} />
      <ImageViewer src={viewer?.src ?? null} alt={viewer?.alt ?? ''} onClose={() => setViewer(null)} />
    </>
  );
}

function SenderBlock({
  room,
  sender,
  mine,
  moderator,
  ts,
  items,
  onReply,
  onOpenImage,
}: {
  room: Room;
  sender: string;
  mine: boolean;
  /** Moderation controls: the member's menu (not on one's own messages) and delete on each message. */
  moderator: boolean;
  ts: number;
  items: Item[];
  onReply: (e: MatrixEvent) => void;
  onOpenImage: (src: string, alt: string) => void;
}) {
  const name = room.getMember(sender)?.name ?? sender;
  return (
    <div className={styles.senderBlock} data-mine={mine} data-testid="chat-group">
      <img
        className={styles.avatar}
        src={`/api/users/matrixavatar/${encodeURIComponent(sender)}`}
        alt=""
        loading="lazy"
      />
      <div className={styles.senderBody}>
        <div className={styles.senderLine}>
          <span className={styles.senderName}>{name}</span>
          <span className={styles.time}>{dayjs(ts).format('H:mm')}</span>
          {moderator && !mine && <MemberModeration room={room} sender={sender} name={name} />}
        </div>
        {items.map((item) => (
          <EventLine
            key={item.id}
            room={room}
            event={item.event}
            redactAs={moderator ? name : null}
            onReply={onReply}
            onOpenImage={onOpenImage}
          />
        ))}
      </div>
    </div>
  );
}

function EventLine({
  room,
  event,
  redactAs,
  onReply,
  onOpenImage,
}: {
  room: Room;
  event: MatrixEvent;
  /** The sender's name when the viewer moderates the room (a delete button), else null. */
  redactAs: string | null;
  onReply: (e: MatrixEvent) => void;
  onOpenImage: (src: string, alt: string) => void;
}) {
  const { t } = useTranslation();
  const type = event.getType();
  // Membership, names and other state events are part of the room's history, not messages.
  if (type !== EventType.RoomMessage && event.isState()) return null;
  const content = event.getContent();
  const display = eventDisplay(type, content);
  const replyId = content['m.relates_to']?.['m.in_reply_to']?.event_id as string | undefined;
  return (
    <div
      className={styles.message}
      data-testid="chat-message"
      data-pending={Boolean(event.status)}
      title={dayjs(event.getTs()).format('H:mm')}
    >
      {replyId && <ReplyQuote room={room} eventId={replyId} />}
      {display.kind === 'message' ? (
        <MessageBody event={event} msgtype={display.msgtype} onOpenImage={onOpenImage} />
      ) : (
        <span className={styles.muted}>
          {display.kind === 'deleted'
            ? t('chat.deleted')
            : display.kind === 'unsupported-msgtype'
              ? t('chat.unsupportedType', { type: display.msgtype })
              : t('chat.unsupportedEvent')}
        </span>
      )}
      {display.kind === 'message' && event.getId()?.startsWith('$') && (
        <button
          type="button"
          className={styles.replyButton}
          aria-label={t('chat.reply')}
          title={t('chat.reply')}
          onClick={() => onReply(event)}
          data-testid="chat-reply"
        >
          <ReplyIcon size={16} />
        </button>
      )}
      {redactAs !== null && display.kind === 'message' && event.getId()?.startsWith('$') && (
        <RedactButton room={room} eventId={event.getId() as string} name={redactAs} />
      )}
    </div>
  );
}

function ReplyQuote({ room, eventId }: { room: Room; eventId: string }) {
  const { t } = useTranslation();
  const original = room.findEventById(eventId);
  const sender = original ? (room.getMember(original.getSender() ?? '')?.name ?? original.getSender()) : null;
  return (
    <div className={styles.replyQuote} data-testid="chat-reply-quote">
      <strong>{sender ?? t('chat.replyTo')}</strong>{' '}
      <span>{original ? String(original.getContent().body ?? '') : '…'}</span>
    </div>
  );
}

function MessageBody({
  event,
  msgtype,
  onOpenImage,
}: {
  event: MatrixEvent;
  msgtype: string;
  onOpenImage: (src: string, alt: string) => void;
}) {
  const content = event.getContent();
  const body = String(content.body ?? '');
  const mxc = typeof content.url === 'string' ? content.url : undefined;
  const media = useMediaUrl(msgtype === 'm.text' || msgtype === 'm.notice' ? undefined : mxc);
  if (msgtype === 'm.text' || msgtype === 'm.notice') {
    const emoji = emojiOnlyCount(body);
    return (
      <div
        className={styles.text}
        data-emoji={emoji === 1 ? 'big' : emoji > 1 ? 'many' : undefined}
        data-notice={msgtype === 'm.notice' || undefined}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: cleanMessageHtml escapes everything but its own links
        dangerouslySetInnerHTML={{ __html: cleanMessageHtml(body) }}
      />
    );
  }
  if (msgtype === 'm.image') {
    return media ? (
      <button type="button" className={styles.imageButton} onClick={() => onOpenImage(media, body)}>
        <img src={media} alt={body} className={styles.image} data-testid="chat-image" />
      </button>
    ) : (
      <div className={styles.mediaPlaceholder} />
    );
  }
  if (msgtype === 'm.audio')
    return media ? (
      <audio controls src={media} className={styles.audio} data-testid="chat-audio">
        <track kind="captions" />
      </audio>
    ) : (
      <div className={styles.muted}>{body}</div>
    );
  if (msgtype === 'm.video')
    return media ? (
      <video controls src={media} className={styles.video}>
        <track kind="captions" />
      </video>
    ) : (
      <div className={styles.mediaPlaceholder} />
    );
  return (
    <a
      className={styles.file}
      href={media ?? undefined}
      download={content.filename ?? body}
      data-testid="chat-file"
    >
      <FileIcon size={18} />
      <span>{content.filename ?? body}</span>
    </a>
  );
}
