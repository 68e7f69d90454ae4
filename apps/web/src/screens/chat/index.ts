export { ChatScreen as default } from './ChatScreen';
