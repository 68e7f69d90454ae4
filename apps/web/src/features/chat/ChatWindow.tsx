/**
 * The floating chat window (docs/contract.md §2 Global layout): draggable by its banner and resizable from its
 * corner, 400×360 by default and at least 300×240, always kept inside the viewport. Shows the
 * open room, or the room list (all rooms grouped favourite / other / low priority, newest first;
 * each room's menu tags it favourite or low priority).
 */
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { type PointerEvent as ReactPointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChatIcon } from '../../ui/icons';
import { LogoMark } from '../../ui/Logo';
import styles from './Chat.module.css';
import { ChatOfflineBar, ChatOfflineNote, ChatRoom } from './ChatRoom';
import { setRoomTag } from './engine';
import { CloseIcon, ExpandIcon, MoreIcon, RoomsIcon, StarIcon } from './icons';
import { CHAT, groupRooms, ROOM_TAGS, type RoomSummary, type RoomTag } from './rules';
import { closeChatWindow, openChatWindow, useChat } from './store';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function clampBox(b: Box): Box {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const w = Math.min(Math.max(b.w, CHAT.minWidth), vw - 8);
  const h = Math.min(Math.max(b.h, CHAT.minHeight), vh - 8);
  return { w, h, x: Math.min(Math.max(b.x, 4), vw - w - 4), y: Math.min(Math.max(b.y, 4), vh - h - 4) };
}

function defaultBox(): Box {
  const right = window.innerWidth >= 1200 ? 288 + 20 : 20;
  return clampBox({
    w: CHAT.windowWidth,
    h: CHAT.windowHeight,
    x: window.innerWidth - CHAT.windowWidth - right,
    y: window.innerHeight - CHAT.windowHeight - 20,
  });
}

/** Pointer drag helper: calls onMove with the pointer's offset from where the drag started. */
function startDrag(e: ReactPointerEvent, onMove: (dx: number, dy: number) => void): void {
  if ((e.target as HTMLElement).closest('button')) return;
  e.preventDefault();
  const sx = e.clientX;
  const sy = e.clientY;
  const move = (ev: PointerEvent) => onMove(ev.clientX - sx, ev.clientY - sy);
  const up = () => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
}

export function ChatWindow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const chatId = useChat((s) => s.chatId);
  const [showList, setShowList] = useState(false);
  const [box, setBox] = useState<Box>(defaultBox);
  const boxRef = useRef(box);
  boxRef.current = box;
  useEffect(() => {
    const onResize = () => setBox((b) => clampBox(b));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly opened chat closes the room list
  useEffect(() => setShowList(false), [chatId]);

  const onDrag = (e: ReactPointerEvent) => {
    const start = boxRef.current;
    startDrag(e, (dx, dy) => setBox(clampBox({ ...start, x: start.x + dx, y: start.y + dy })));
  };
  const onResize = (e: ReactPointerEvent) => {
    const start = boxRef.current;
    startDrag(e, (dx, dy) => setBox(clampBox({ ...start, w: start.w + dx, h: start.h + dy })));
  };

  const tools = (
    <>
      <Tooltip title={t('chat.rooms')}>
        <IconButton
          size="small"
          aria-label={t('chat.rooms')}
          onClick={() => setShowList((v) => !v)}
          data-testid="chat-rooms-toggle"
        >
          <RoomsIcon size={18} />
        </IconButton>
      </Tooltip>
      {chatId && (
        <Tooltip title={t('chat.expand')}>
          <IconButton
            size="small"
            aria-label={t('chat.expand')}
            onClick={() => {
              closeChatWindow();
              navigate(`/chat/${encodeURIComponent(chatId)}`);
            }}
          >
            <ExpandIcon size={16} />
          </IconButton>
        </Tooltip>
      )}
    </>
  );

  return (
    <div
      className={styles.window}
      style={{ left: box.x, top: box.y, width: box.w, height: box.h }}
      data-testid="chat-window"
      role="dialog"
      aria-label={t('chat.title')}
    >
      {chatId && !showList ? (
        <ChatRoom
          chatId={chatId}
          variant="window"
          onClose={closeChatWindow}
          bannerProps={{ onPointerDown: onDrag }}
          bannerExtra={tools}
        />
      ) : (
        <RoomListPanel
          tools={chatId && tools}
          onClose={closeChatWindow}
          onPick={(roomId) => openChatWindow(roomId)}
          onBannerPointerDown={onDrag}
        />
      )}
      <div className={styles.resize} onPointerDown={onResize} aria-hidden="true" data-testid="chat-resize" />
    </div>
  );
}

/** The room list under a banner (logo, 'Rooms', extra tools, close): the window's and the page's. */
export function RoomListPanel({
  tools,
  onClose,
  onPick,
  onBannerPointerDown,
}: {
  tools?: React.ReactNode;
  onClose: () => void;
  onPick: (roomId: string) => void;
  onBannerPointerDown?: (e: ReactPointerEvent) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.room}>
      <div className={styles.banner} onPointerDown={onBannerPointerDown}>
        <span className={styles.bannerAvatar}>
          <LogoMark size={28} />
        </span>
        <span className={styles.bannerName}>{t('chat.rooms')}</span>
        {tools}
        <IconButton size="small" aria-label={t('chat.close')} onClick={onClose} data-testid="chat-close">
          <CloseIcon size={18} />
        </IconButton>
      </div>
      <RoomList current={null} onPick={onPick} />
    </div>
  );
}

export function RoomList({ current, onPick }: { current: string | null; onPick: (roomId: string) => void }) {
  const { t } = useTranslation();
  const chats = useChat((s) => s.chats);
  const synced = useChat((s) => s.matrixSynched);
  const down = useChat((s) => s.chatUnavailable);
  const groups = useMemo(() => groupRooms(chats), [chats]);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; room: RoomSummary } | null>(null);
  if (!synced)
    return down ? <ChatOfflineNote /> : <div className={styles.centerNote}>{t('chat.loading')}</div>;
  const section = (title: string, testId: string, rooms: RoomSummary[]) =>
    rooms.length > 0 && (
      <div key={title} data-testid={testId}>
        <div className={styles.roomListTitle}>{title}</div>
        {rooms.map((r) => (
          <div key={r.roomId} className={styles.roomRow} data-testid="chat-room-row">
            <button
              type="button"
              className={styles.roomItem}
              aria-current={r.roomId === current}
              onClick={() => onPick(r.roomId)}
              data-testid="chat-room-item"
            >
              {r.tags.includes(ROOM_TAGS.favourite) ? <StarIcon size={18} /> : <ChatIcon size={18} />}
              <span>{r.name}</span>
              {r.unread > 0 && <span className={styles.badge}>{r.unread}</span>}
            </button>
            <IconButton
              size="small"
              className={styles.roomMenuButton}
              aria-label={`${t('chat.roomOptions')}: ${r.name}`}
              aria-haspopup="menu"
              onClick={(e) => setMenu({ anchor: e.currentTarget, room: r })}
              data-testid="chat-room-menu"
            >
              <MoreIcon size={18} />
            </IconButton>
          </div>
        ))}
      </div>
    );
  const tagItem = (tag: RoomTag, label: string) => {
    const on = menu?.room.tags.includes(tag) ?? false;
    return (
      <MenuItem
        role="menuitemcheckbox"
        aria-checked={on}
        selected={on}
        onClick={() => {
          if (menu) void setRoomTag(menu.room.roomId, tag, !on);
          setMenu(null);
        }}
      >
        {label}
      </MenuItem>
    );
  };
  return (
    <div className={styles.roomList} data-testid="chat-room-list">
      {down && <ChatOfflineBar />}
      {chats.length === 0 && <div className={styles.centerNote}>{t('chat.noRooms')}</div>}
      {section(t('chat.favourites'), 'chat-rooms-favourite', groups.favourite)}
      {section(t('chat.allRooms'), 'chat-rooms-other', groups.other)}
      {section(t('chat.lowPriority'), 'chat-rooms-lowpriority', groups.lowPriority)}
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {tagItem(ROOM_TAGS.favourite, t('chat.tagFavourite'))}
        {tagItem(ROOM_TAGS.lowPriority, t('chat.lowPriority'))}
      </Menu>
    </div>
  );
}

/** Round button that opens the window; shows the total unread count. */
export function ChatLauncher({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  const total = useChat((s) => Object.values(s.notifications).reduce((a, b) => a + b, 0));
  return (
    <button
      type="button"
      className={styles.launcher}
      onClick={onOpen}
      // The visible count belongs to the name too (WCAG 2.5.3, label in name).
      aria-label={total > 0 ? `${t('chat.open')} (${total})` : t('chat.open')}
      data-testid="chat-launcher"
    >
      <ChatIcon size={24} />
      {total > 0 && (
        <span className={styles.badge} data-testid="chat-launcher-unread">
          {total}
        </span>
      )}
    </button>
  );
}
