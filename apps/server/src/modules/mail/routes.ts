/**
 * Mail module entry: the `mail.send` job that delivers queued e-mail (queue.ts). The mailer itself
 * (SMTP or the dev outbox, mailer.ts) is on the context.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { jobsOf } from '../../jobs';
import { MAIL_JOB, mailJob } from './queue';

export function mailModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    jobsOf(ctx).handle(MAIL_JOB, mailJob(ctx, app.log));
  };
}
