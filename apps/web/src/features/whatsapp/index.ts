export { WhatsAppRow } from './WhatsAppRow';
