import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function HomeScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.home.title')} />;
}
