import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function VerifyScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.verify.title')} />;
}
