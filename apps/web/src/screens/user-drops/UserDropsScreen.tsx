import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../app/screenModules';
import { ScreenSection } from '../../ui/ScreenSection';

/** A player's drops (/user/:userId/drops) or stats (/user/:userId/stats), chosen by `content`. */
export function UserDropsScreen({ content }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <ScreenSection title={content === 'stats' ? t('user.tabs.stats') : t('screens.userDrops.title')}>
      <Typography color="text.secondary">
        {t(content === 'stats' ? 'friends.page.empty.stats' : 'friends.page.empty.drops')}
      </Typography>
    </ScreenSection>
  );
}
