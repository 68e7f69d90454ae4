import { useTranslation } from 'react-i18next';
import { UserMatchList } from '../../features/matches/MatchList';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's matches as a section (MUI; UserMatches mounts it after the page's header has painted). */
export function UserMatchesSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  return (
    <ScreenSection title={t('user.tabs.matches')}>
      <UserMatchList userId={userId} />
    </ScreenSection>
  );
}
