import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function ResetPasswordScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.resetPassword.title')} />;
}
