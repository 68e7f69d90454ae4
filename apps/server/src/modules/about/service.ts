/**
 * About: the texts admins wrote for each language (community, rules, contact), and their change,
 * audited in one transaction with the write.
 */
import type { AboutTexts, Locale } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { inTransaction } from '../../jobs';
import { recordAudit } from '../moderation';
import { aboutTexts } from './schema';

const EMPTY: AboutTexts = { community: '', rules: '', contact: '' };

/** One language's texts; '' for each that nobody wrote yet. */
export async function aboutTextsOf(db: Db, locale: Locale): Promise<AboutTexts> {
  const [row] = await db.select().from(aboutTexts).where(eq(aboutTexts.locale, locale));
  return row ? { community: row.community, rules: row.rules, contact: row.contact } : EMPTY;
}

/** Replaces one language's texts (an admin), with the audit line saying what they were before. */
export async function saveAboutTexts(
  ctx: AppContext,
  locale: Locale,
  texts: AboutTexts,
  actorId: string,
): Promise<void> {
  const before = await aboutTextsOf(ctx.db, locale);
  await inTransaction(ctx.db, async (tx) => {
    const row = { ...texts, updatedAt: ctx.clock.now(), updatedBy: actorId };
    await tx
      .insert(aboutTexts)
      .values({ locale, ...row })
      .onConflictDoUpdate({ target: aboutTexts.locale, set: row });
    await recordAudit(ctx, tx, {
      actorId,
      action: 'about.update',
      targetType: 'page',
      targetId: `about:${locale}`,
      before,
      after: texts,
    });
  });
}
