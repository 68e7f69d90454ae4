// For the queue alert's one-tap join link (features/queue-alerts/joinLink.ts).
export { restoreQueue, sendQueue } from './actions';
export { QueueWidget } from './QueueWidget';
export { useQueue } from './state';
