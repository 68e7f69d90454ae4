import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  return <ScreenPage title={t('screens.forgotPassword.title')} />;
}
