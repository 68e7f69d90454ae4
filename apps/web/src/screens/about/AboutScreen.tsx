import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function AboutScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.about.title')} />;
}
