import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function Season1Screen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.season1.title')} />;
}
