export { UserHighlightsScreen as default } from './UserHighlightsScreen';
