import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { ScreenProps } from '../../app/screenModules';
import { UserMatchList } from '../../features/matches/MatchList';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's matches (/user/:userId/matches), the default section of the player page. */
export function UserMatches(_props: ScreenProps) {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  return (
    <ScreenSection title={t('user.tabs.matches')}>
      <UserMatchList userId={userId} />
    </ScreenSection>
  );
}
