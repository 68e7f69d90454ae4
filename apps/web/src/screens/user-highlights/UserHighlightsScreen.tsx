import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../app/screenModules';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's highlights (/user/:userId/highlights). */
export function UserHighlightsScreen(_props: ScreenProps) {
  const { t } = useTranslation();
  return (
    <ScreenSection title={t('screens.userHighlights.title')}>
      <Typography color="text.secondary">{t('friends.page.empty.highlights')}</Typography>
    </ScreenSection>
  );
}
