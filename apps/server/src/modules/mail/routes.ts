/**
 * Mail module entry: the `mail.send` job that delivers queued e-mail (queue.ts). The mailer itself
 * (SMTP or the dev outbox, mailer.ts) is on the context.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { mailJob } from './queue';

export function mailModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async () => {
    ctx.jobs.register(mailJob);
  };
}
