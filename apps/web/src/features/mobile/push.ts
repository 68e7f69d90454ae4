/**
 * Service worker and Web Push for the mobile queue app: registers /sw.js (scope /, the same
 * registration that precaches the app shell; it covers /m), subscribes with the server's VAPID key
 * and stores the subscription (POST /api/push/subscriptions). Phones that registered it with the
 * older scope /m keep that registration: the same worker script, and `getRegistration('/m')`
 * finds whichever one covers /m.
 */
import { registerServiceWorker } from '../../serviceWorker/register';
import { ApiError, api } from '../api';

export type PushState = 'unsupported' | 'default' | 'granted' | 'denied' | 'subscribed';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

export { registerServiceWorker };

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export async function currentPushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await navigator.serviceWorker.getRegistration('/m');
  const sub = await reg?.pushManager.getSubscription();
  if (sub && Notification.permission === 'granted') return 'subscribed';
  return Notification.permission === 'granted' ? 'granted' : 'default';
}

/** Asks for permission (needs a tap), subscribes and stores the subscription. */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'default';
  const reg = (await registerServiceWorker()) ?? (await navigator.serviceWorker.ready);
  const { publicKey } = await api.get<{ publicKey: string }>('/push/vapid', { silent: true });
  const subscribe = () =>
    reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  const store = (sub: PushSubscription) => {
    const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    return api.post('/push/subscriptions', { endpoint: json.endpoint, keys: json.keys }, { silent: true });
  };
  const existing = await reg.pushManager.getSubscription();
  try {
    await store(existing ?? (await subscribe()));
  } catch (error) {
    // This browser's subscription belongs to the account used here before: a new one for this player.
    if (!existing || !(error instanceof ApiError && error.key === 'PUSH_ENDPOINT_TAKEN')) throw error;
    await existing.unsubscribe();
    await store(await subscribe());
  }
  return 'subscribed';
}
