import { z } from 'zod';

/**
 * List query of docs/contract.md §7: built from a table's paging. Query-string values arrive as strings,
 * so numbers are coerced; out-of-range values are refused, not clamped silently.
 */
export const MAX_PAGE_SIZE = 100;

export const listQuerySchema = z.object({
  sort: z.string().trim().min(1).max(64).optional(),
  order: z
    .union([z.literal('-1'), z.literal('1'), z.literal(-1), z.literal(1)])
    .transform((v) => (Number(v) === -1 ? -1 : 1) as -1 | 1)
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  filter: z.string().max(200).optional(),
  fields: z.string().max(500).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
export type ListQueryInput = z.input<typeof listQuerySchema>;

/** Paged response: `docs` and `totalDocs` as the spec names them. */
export function pagedSchema<T extends z.ZodType>(doc: T) {
  return z.object({ docs: z.array(doc), totalDocs: z.number().int().min(0) });
}
export type Paged<T> = { docs: T[]; totalDocs: number };

/** Turns a table's paging state into the query string the server expects. */
export function listQueryString(q: {
  sortBy?: string;
  descending?: boolean;
  page: number;
  rowsPerPage: number;
  filter?: string;
  fields?: string;
}): string {
  const p = new URLSearchParams();
  if (q.sortBy) p.set('sort', q.sortBy);
  p.set('order', q.descending ? '-1' : '1');
  p.set('page', String(q.page));
  p.set('limit', String(q.rowsPerPage));
  if (q.filter) p.set('filter', q.filter);
  if (q.fields) p.set('fields', q.fields);
  return `?${p.toString()}`;
}
