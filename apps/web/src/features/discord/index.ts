export { DiscordRow } from './DiscordRow';
