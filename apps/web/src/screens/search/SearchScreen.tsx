import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../app/screenModules';
import { ScreenPage } from '../../ui/ScreenPage';
import { ScreenSection } from '../../ui/ScreenSection';

/** Add friends (/search); also a player's friends tab (/user/:userId/friends, `content` set). */
export function SearchScreen({ content }: ScreenProps) {
  const { t } = useTranslation();
  if (content === 'friends') return <ScreenSection title={t('user.tabs.friends')} />;
  return <ScreenPage title={t('screens.search.title')} />;
}
