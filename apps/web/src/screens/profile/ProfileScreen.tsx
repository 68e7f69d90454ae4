import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function ProfileScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.profile.title')} />;
}
