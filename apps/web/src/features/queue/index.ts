// For the queue alert's one-tap join link (features/queue-alerts/joinLink.ts).

// The desktop-notification opt-in, also offered in the queue alerts' settings.
export { NotificationOptIn } from './acceptAlerts';
export { restoreQueue, sendQueue } from './actions';
export { CooldownNotice, useRunningCooldown } from './CooldownNotice';
export { useQueueSocketEvents } from './events';
export { QueueWidget } from './QueueWidget';
export { hasAccepted, readyCount, useQueue } from './state';
