import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

/** A chat room on its own page (/chat/:chatId); the layout hides the sidebars here. */
export function ChatScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.chat.title')} />;
}
