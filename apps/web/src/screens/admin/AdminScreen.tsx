import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function AdminScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.admin.title')} />;
}
