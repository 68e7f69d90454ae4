export { FriendsSidebar } from './FriendsSidebar';
