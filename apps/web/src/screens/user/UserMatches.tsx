import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../app/screenModules';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's matches (/user/:userId/matches), the default section of the player page. */
export function UserMatches(_props: ScreenProps) {
  const { t } = useTranslation();
  return (
    <ScreenSection title={t('user.tabs.matches')}>
      <Typography color="text.secondary">{t('friends.page.empty.matches')}</Typography>
    </ScreenSection>
  );
}
