/**
 * Job definitions: a kind, the zod schema of its payload and its handler, declared by the module
 * that handles it (`defineJob`) and registered in that module's plugin (`ctx.jobs.register`).
 *
 * A job's payload is stored as its row's `key` (the row id is `<kind>:<key>`, which is what makes
 * scheduling the same deadline twice a no-op): the payload's fields in declaration order, joined by
 * the separator (`:` unless given), e.g. `match.pick` `{ matchId, index }` → `<matchId>:<index>`.
 * Only the last field may contain the separator. Integer fields are written as decimals and read
 * back as numbers. `definition.key(payload)` builds a key and `definition.parse(key)` reads one;
 * nothing else packs or splits keys.
 */
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { After } from './tx';

/** Field schemas for payloads: an id (uuids and the like), a count or index, a time (epoch ms). */
export const jobField = {
  id: z.string().min(1),
  index: z.int().min(0),
  time: z.int().min(0),
};

/** What a payload field may hold: text, or an integer (both are written into the key). */
export type JobShape = Record<string, z.ZodType<string | number>>;

export type JobHandler<P> = (ctx: AppContext, tx: Db, after: After, payload: P) => Promise<void>;

export interface JobSpec<S extends JobShape> {
  /** `<module>.<what>`; stored in every row, so never renamed once released. */
  kind: string;
  payload: z.ZodObject<S>;
  /** Joins the fields in the key; ':' unless given. */
  separator?: string;
  /**
   * The fixed key of a job with one row only (it re-arms itself, e.g. `presence.sweep`): every
   * instance schedules that row, and it fires once. Its payload has no fields.
   */
  singleRow?: keyof S extends never ? string : never;
  /**
   * Runs inside the transaction that claimed the job (its writes commit with the claim); slow or
   * network work goes on `after`. Check that the state has not moved on: a deadline may be stale.
   */
  handle: JobHandler<z.output<z.ZodObject<S>>>;
}

export type ParsedPayload<P> = { success: true; data: P } | { success: false; error: string };

/** What the scheduler keeps of a definition, whatever its payload type. */
export interface JobKind {
  readonly kind: string;
  /** The payload's fields, in key order. */
  readonly fields: readonly string[];
  readonly separator: string;
  /** Reads the payload from `key` and handles it; returns why the key was refused, else null. */
  run(ctx: AppContext, tx: Db, after: After, key: string): Promise<string | null>;
}

export interface JobDefinition<P> extends JobKind {
  /** The stored key of a payload; throws on a payload the schema refuses (a programming error). */
  key(payload: P): string;
  /** The row id of a payload: `<kind>:<key>`. */
  id(payload: P): string;
  /** The payload stored in a key, checked against the schema. */
  parse(key: string): ParsedPayload<P>;
  readonly handle: JobHandler<P>;
}

/** The schema accepts the field as text (a string field), else as the number it spells. */
function decodeField(schema: z.ZodType, raw: string): unknown {
  if (schema.safeParse(raw).success) return raw;
  return /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

export function defineJob<S extends JobShape>(spec: JobSpec<S>): JobDefinition<z.output<z.ZodObject<S>>> {
  type P = z.output<z.ZodObject<S>>;
  const fields = Object.keys(spec.payload.shape);
  const separator = spec.separator ?? ':';
  const single = spec.singleRow as string | undefined;
  if (single !== undefined && fields.length > 0)
    throw new Error(`${spec.kind}: a single-row job has no fields`);
  if (single === undefined && fields.length === 0) throw new Error(`${spec.kind}: a payload needs a field`);

  const key = (payload: P): string => {
    const checked = spec.payload.parse(payload) as Record<string, string | number>;
    if (single !== undefined) return single;
    const parts = fields.map((f) => String(checked[f]));
    parts.slice(0, -1).forEach((part, i) => {
      if (part.includes(separator))
        throw new Error(`${spec.kind}: field ${fields[i]} must not contain '${separator}'`);
    });
    return parts.join(separator);
  };

  const parse = (raw: string): ParsedPayload<P> => {
    if (single !== undefined)
      return raw === single
        ? { success: true, data: {} as P }
        : { success: false, error: `key is not '${single}'` };
    const parts: string[] = [];
    let rest = raw;
    for (let i = 0; i < fields.length - 1; i++) {
      const at = rest.indexOf(separator);
      if (at < 0)
        return { success: false, error: `expected ${fields.length} fields joined by '${separator}'` };
      parts.push(rest.slice(0, at));
      rest = rest.slice(at + separator.length);
    }
    parts.push(rest);
    const decoded = Object.fromEntries(
      fields.map((f, i) => [f, decodeField(spec.payload.shape[f], parts[i])]),
    );
    const result = spec.payload.safeParse(decoded);
    return result.success
      ? { success: true, data: result.data }
      : { success: false, error: z.prettifyError(result.error) };
  };

  return {
    kind: spec.kind,
    fields,
    separator,
    key,
    id: (payload) => `${spec.kind}:${key(payload)}`,
    parse,
    handle: spec.handle,
    async run(ctx, tx, after, raw) {
      const payload = parse(raw);
      if (!payload.success) return payload.error;
      await spec.handle(ctx, tx, after, payload.data);
      return null;
    },
  };
}
