/**
 * INSERTs of many rows with one array parameter per column (`unnest`) instead of Drizzle's VALUES
 * list with one parameter per value. In the 1,000-player matchmaking burst a roster insert carries
 * ~770 values and a presence write ~650: Drizzle took 2–5 ms of the server's thread to build each
 * (its SQL walk per value), and PostgreSQL parses and binds each parameter (issue 20 target 4,
 * bench/RESULTS.md, sessions 21–22). Every array goes as text[] and each column is cast to its own
 * SQL type in the SELECT, so one path serves every column type on both drivers (node-postgres and
 * PGlite each serialise a JS array of strings and nulls as a text[] literal).
 */
import { type Column, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** One column's values as text for a text[] parameter: the driver value, null for SQL NULL. */
function asText(column: Column, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const driverValue = column.mapToDriverValue(value);
  if (driverValue === null || driverValue === undefined) return null;
  if (typeof driverValue === 'string') return driverValue;
  if (driverValue instanceof Date) return driverValue.toISOString();
  return typeof driverValue === 'object' ? JSON.stringify(driverValue) : String(driverValue);
}

/** An array of texts as one parameter. */
export const textArray = (values: readonly (string | null)[]): SQL => sql`${sql.param(values)}::text[]`;

/**
 * `INSERT INTO table (keys…) SELECT … FROM unnest(…)`: the given columns of every row, in order;
 * the table's defaults fill the others. Append `ON CONFLICT …` and `RETURNING …` with sql``, run
 * with `executeRows` (db/client.ts).
 */
export function insertUnnested<T extends PgTable>(
  table: T,
  keys: readonly (keyof T['$inferInsert'] & string)[],
  rows: readonly T['$inferInsert'][],
): SQL {
  const columns = getTableColumns(table) as Record<string, Column>;
  const picked = keys.map((key) => columns[key]);
  const aliases = picked.map((_, i) => sql.identifier(`c${i}`));
  return sql`INSERT INTO ${table} (${sql.join(
    picked.map((column) => sql.identifier(column.name)),
    sql`, `,
  )}) SELECT ${sql.join(
    picked.map((column, i) => sql`${aliases[i]}::${sql.raw(column.getSQLType())}`),
    sql`, `,
  )} FROM unnest(${sql.join(
    picked.map((column, i) => textArray(rows.map((row) => asText(column, row[keys[i]])))),
    sql`, `,
  )}) AS u(${sql.join(aliases, sql`, `)})`;
}
