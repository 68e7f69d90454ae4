/**
 * WhatsApp senders. With WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID the WhatsApp Business Cloud
 * API is used (`POST {WHATSAPP_API_URL}/{phoneNumberId}/messages`, bearer token, a text message);
 * otherwise messages land in the dev outbox (channel whatsapp).
 */
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { storeOutboxMessage } from '../mail/mailer';

export interface WhatsAppMessage {
  /** E.164 number, e.g. +491701234567. */
  to: string;
  userId?: string | null;
  text: string;
}

export interface WhatsAppSender {
  readonly kind: 'cloud-api' | 'outbox';
  /** Rejects when the provider refuses the message. */
  send(msg: WhatsAppMessage): Promise<void>;
}

export class CloudApiSender implements WhatsAppSender {
  readonly kind = 'cloud-api' as const;
  constructor(
    private readonly base: string,
    private readonly phoneNumberId: string,
    private readonly token: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(msg: WhatsAppMessage): Promise<void> {
    const url = `${this.base.replace(/\/$/, '')}/${encodeURIComponent(this.phoneNumberId)}/messages`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: msg.to.replace(/^\+/, ''),
        type: 'text',
        text: { preview_url: false, body: msg.text },
      }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) {
      const body = await res.text().catch(() => '');
      throw new Error(`WhatsApp Cloud API answered ${res.status}: ${body.slice(0, 200)}`);
    }
  }
}

export function createWhatsAppSender(config: Config, db: Db, now: () => number): WhatsAppSender {
  if (config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID)
    return new CloudApiSender(
      config.WHATSAPP_API_URL,
      config.WHATSAPP_PHONE_NUMBER_ID,
      config.WHATSAPP_TOKEN,
    );
  return {
    kind: 'outbox',
    send: (msg) =>
      storeOutboxMessage(db, { channel: 'whatsapp', to: msg.to, userId: msg.userId, text: msg.text }, now()),
  };
}
