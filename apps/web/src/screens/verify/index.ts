export { VerifyScreen as default } from './VerifyScreen';
