export { LandingScreen as default } from './LandingScreen';
