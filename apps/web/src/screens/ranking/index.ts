export { RankingScreen as default } from './RankingScreen';
