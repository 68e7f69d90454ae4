export { LeaderboardScreen as default } from './LeaderboardScreen';
