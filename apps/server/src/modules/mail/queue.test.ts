/**
 * Durable e-mail (queue.ts) against a real SMTP server (smtp-server): a mail queued while the
 * mail server is unreachable survives a restart and goes out from the next process; an SMTP 5xx
 * is final after one attempt and counted in /metrics. (The 421-then-accepted retry is in
 * accounts.test.ts, "SMTP".)
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, openTestDatabase } from '../../../test/helpers';
import { freePort } from '../../../test/infra';
import { jobs } from '../../jobs/schema';
import { withSmtpTimeouts } from './mailer';
import { mailQueue } from './schema';

const servers: SMTPServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

/** A real SMTP server on `port` that answers each DATA with `answer` (undefined: accepted). */
async function smtpServer(port: number, answer: () => number | undefined) {
  const received: string[] = [];
  let attempts = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => {
        data += c.toString();
      });
      stream.on('end', () => {
        attempts++;
        const code = answer();
        if (code) return callback(Object.assign(new Error('refused'), { responseCode: code }));
        received.push(data);
        callback();
      });
    },
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, attempts: () => attempts, port: (server.server.address() as AddressInfo).port };
}

const register = (app: Awaited<ReturnType<typeof createTestApp>>, email: string) =>
  app.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { name: 'Mailee', email, password: 'secret1' },
  });

describe('durable e-mail', () => {
  it('keeps a mail the server could not send and sends it from the next process', async () => {
    const database = await openTestDatabase();
    const port = await freePort(); // nothing listens yet: the first attempt is refused (ECONNREFUSED)
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL: 'https://pug.example',
      NOTIFY_RETRY_MS: '60000',
    };
    const first = await createTestApp({ database, env });
    try {
      expect((await register(first, 'later@example.test')).statusCode).toBe(202);
      await expect
        .poll(async () => (await database.db.select().from(mailQueue)).map((m) => m.attempts))
        .toEqual([1]);
    } finally {
      await first.close(); // the process goes; its mail and the booked retry stay in the database
    }
    const pending = await database.db.select().from(jobs);
    expect(pending.filter((j) => j.kind === 'mail.send' && j.firedAt === null)).toHaveLength(1);

    const smtp = await smtpServer(port, () => undefined);
    // The next process starts after the retry's time has come (its clock is a minute ahead).
    const second = await createTestApp({ database, env, clock: { now: () => Date.now() + 120_000 } });
    try {
      await second.app.ready();
      await expect.poll(() => smtp.received.length).toBe(1);
      expect(smtp.received[0].replace(/=\r?\n/g, '')).toMatch(/https:\/\/pug\.example\/verify\//);
      await expect.poll(async () => (await database.db.select().from(mailQueue)).length).toBe(0);
    } finally {
      await second.close();
      await database.dispose();
    }
  });

  it('gives up at once on a permanent refusal (5xx) and counts it', async () => {
    const smtp = await smtpServer(0, () => 550);
    const app = await createTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        PUBLIC_URL: 'https://pug.example',
        NOTIFY_RETRY_MS: '20',
      },
    });
    try {
      expect((await register(app, 'nobody@example.test')).statusCode).toBe(202);
      await expect.poll(async () => (await app.database.db.select().from(mailQueue)).length).toBe(0);
      expect(smtp.attempts()).toBe(1);
      expect(smtp.received).toEqual([]);
      const metrics = await app.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(metrics.body).toMatch(/openpug_notify_failures_total\{channel="email",reason="error"\} 1/);
    } finally {
      await app.close();
    }
  });
});

describe('SMTP time-outs', () => {
  it('are added to the URL (where nodemailer reads them) unless the admin set them', () => {
    expect(withSmtpTimeouts('smtp://mail.example:587')).toBe(
      'smtp://mail.example:587?connectionTimeout=10000&greetingTimeout=10000&socketTimeout=30000',
    );
    expect(withSmtpTimeouts('smtps://u:p@mail.example:465?socketTimeout=5000')).toBe(
      'smtps://u:p@mail.example:465?socketTimeout=5000&connectionTimeout=10000&greetingTimeout=10000',
    );
  });
});
