export { ForgotPasswordScreen as default } from './ForgotPasswordScreen';
