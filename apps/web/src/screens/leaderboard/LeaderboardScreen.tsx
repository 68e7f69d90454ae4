import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function LeaderboardScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.leaderboard.title')} />;
}
