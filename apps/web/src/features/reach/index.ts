// What other features use of reach: the desktop-notification opt-in (queue alerts' settings).
export { NotificationOptIn } from './acceptAlerts';
