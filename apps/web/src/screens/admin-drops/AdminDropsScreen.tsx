import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function AdminDropsScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.adminDrops.title')} />;
}
