/** A chat room on its own page (/chat/:chatId); the layout hides the sidebars here. */
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import styles from '../../features/chat/Chat.module.css';
import { ChatRoom } from '../../features/chat/ChatRoom';
import { useSession } from '../../features/session/store';

export function ChatScreen() {
  const { t } = useTranslation();
  const { chatId = '' } = useParams();
  const navigate = useNavigate();
  const loggedIn = useSession((s) => s.isTokenSet);
  const close = () => {
    if (window.history.state?.idx > 0) navigate(-1);
    else navigate(loggedIn ? '/home' : '/');
  };
  return (
    <div className={styles.page} data-testid="chat-page">
      {loggedIn ? (
        <>
          <h1 className={styles.srOnly}>{t('screens.chat.title')}</h1>
          <ChatRoom chatId={chatId} variant="page" onClose={close} />
        </>
      ) : (
        <div className={styles.loggedOut}>
          <h1>{t('screens.chat.title')}</h1>
          <p>{t('chat.loginToChat')}</p>
          <Link to="/login">{t('chat.login')}</Link>
        </div>
      )}
    </div>
  );
}
