export { Season1Screen as default } from './Season1Screen';
