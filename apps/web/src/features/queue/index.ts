export { QueueWidget } from './QueueWidget';
