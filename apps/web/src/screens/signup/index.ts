export { SignupScreen as default } from './SignupScreen';
