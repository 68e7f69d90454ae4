/**
 * The desktop channel (docs/contract.md §4 "Queue alerts"): PRIVATE_QUEUE_ALERT reaches the
 * player's open tabs; with notifications allowed it becomes a desktop notification whose click
 * joins the queue, otherwise a message in the page.
 */
import { PLAYERS_PER_MATCH, type QueueAlertPayload } from '@openpug/shared';
import { i18n } from '../../i18n';
import { setSuccessMessage } from '../app-state';
import { useSocketEvent } from '../socket';
import { joinFromAlert } from './joinLink';

export function showQueueAlert({ count }: QueueAlertPayload): Notification | null {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') {
    setSuccessMessage({
      key: 'queueAlerts.inPage',
      params: { count, total: PLAYERS_PER_MATCH },
      timeout: 10_000,
    });
    return null;
  }
  try {
    const n = new Notification(i18n.t('queueAlerts.notifyTitle', { count, total: PLAYERS_PER_MATCH }), {
      body: i18n.t('queueAlerts.notifyBody'),
      icon: '/icons/icon-192.png',
      // One per rise anyway; the tag keeps a second tab from stacking a second one.
      tag: 'openpug-queue-alert',
    });
    n.onclick = () => {
      window.focus();
      n.close();
      void joinFromAlert();
    };
    return n;
  } catch {
    return null;
  }
}

export function useQueueAlertEvents(): void {
  useSocketEvent('PRIVATE_QUEUE_ALERT', (payload) => void showQueueAlert(payload));
}
