import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/** The About page's admin-written texts, one row per language (docs/contract.md §2 /about). */
export const aboutTexts = pgTable('about_texts', {
  locale: text('locale').primaryKey(),
  community: text('community').notNull().default(''),
  rules: text('rules').notNull().default(''),
  contact: text('contact').notNull().default(''),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  updatedBy: text('updated_by'),
});
