/**
 * A chat room on its own page (/chat/:chatId); the layout hides the sidebars here. Phones reach
 * the chat through this page, so its banner also opens the room list (favourite / low priority
 * tags included), and a picked room opens on this page.
 */
import IconButton from '@mui/material/IconButton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import styles from '../../features/chat/Chat.module.css';
import { ChatRoom } from '../../features/chat/ChatRoom';
import { RoomListPanel } from '../../features/chat/ChatWindow';
import { RoomsIcon } from '../../features/chat/icons';
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
  const close = () => {
    if (window.history.state?.idx > 0) navigate(-1);
    else navigate(loggedIn ? '/home' : '/');
  };
  const roomsButton = (
    <IconButton
      size="small"
      aria-label={t('chat.rooms')}
      aria-pressed={showList}
      onClick={() => setListFor(showList ? null : chatId)}
      data-testid="chat-rooms-toggle"
    >
      <RoomsIcon size={18} />
    </IconButton>
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
