export { LoginScreen as default } from './LoginScreen';
