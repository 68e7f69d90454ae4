/**
 * A chat room on its own page (/chat/:chatId); the layout hides the sidebars here. Phones reach
 * the chat through this page, so its banner also opens the room list (favourite / low priority
 * tags included), and a picked room opens on this page. The rooms button is labelled and counts the
 * unread messages of the other rooms, so a direct message is one tap away.
 */
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import styles from '../../features/chat/Chat.module.css';
import { ChatRoom } from '../../features/chat/ChatRoom';
import { RoomListPanel } from '../../features/chat/ChatWindow';
import { RoomsIcon } from '../../features/chat/icons';
import { unreadElsewhere } from '../../features/chat/rules';
import { useChat } from '../../features/chat/store';
import { useSession } from '../../features/session/store';

export function ChatScreen() {
  const { t } = useTranslation();
  const { chatId = '' } = useParams();
  const navigate = useNavigate();
  const loggedIn = useSession((s) => s.isTokenSet);
  // The list belongs to the room it was opened from: opening any room (picked, or reached another
  // way) closes it.
  const [listFor, setListFor] = useState<string | null>(null);
  const showList = listFor === chatId;
  const unread = useChat((s) => unreadElsewhere(s.chats, chatId));
  const close = () => {
    if (window.history.state?.idx > 0) navigate(-1);
    else navigate(loggedIn ? '/home' : '/');
  };
  const roomsButton = (
    <Badge badgeContent={unread} color="error" overlap="rectangular" data-testid="chat-rooms-unread">
      <Button
        size="small"
        color="inherit"
        aria-pressed={showList}
        onClick={() => setListFor(showList ? null : chatId)}
        startIcon={<RoomsIcon size={18} />}
        data-testid="chat-rooms-toggle"
        sx={{ textTransform: 'none', fontWeight: 700, minWidth: 0 }}
      >
        {t('chat.rooms')}
      </Button>
    </Badge>
  );
  if (!loggedIn)
    return (
      <div className={styles.page} data-testid="chat-page">
        <div className={styles.loggedOut}>
          <h1>{t('screens.chat.title')}</h1>
          <p>{t('chat.loginToChat')}</p>
          <Link to="/login">{t('chat.login')}</Link>
        </div>
      </div>
    );
  return (
    <div className={styles.page} data-testid="chat-page">
      <h1 className={styles.srOnly}>{t('screens.chat.title')}</h1>
      {showList ? (
        <RoomListPanel
          tools={roomsButton}
          onClose={close}
          onPick={(roomId) => {
            setListFor(null);
            navigate(`/chat/${encodeURIComponent(roomId)}`);
          }}
        />
      ) : (
        <ChatRoom chatId={chatId} variant="page" onClose={close} bannerExtra={roomsButton} />
      )}
    </div>
  );
}
