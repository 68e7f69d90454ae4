export { UserMatches } from './UserMatches';
export { UserScreen as default } from './UserScreen';
