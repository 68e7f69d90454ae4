import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function RankingScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.ranking.title')} />;
}
