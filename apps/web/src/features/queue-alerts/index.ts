export { useQueueAlertEvents } from './desktopAlert';
export { useQueueJoinLink } from './joinLink';
export { QueueAlertSection } from './QueueAlertSection';
