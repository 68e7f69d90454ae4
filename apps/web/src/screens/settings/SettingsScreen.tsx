import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function SettingsScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.settings.title')} />;
}
