export { ResetPasswordScreen as default } from './ResetPasswordScreen';
