/**
 * Each connection to PostgreSQL or to the embedded engine keeps the statements it runs with
 * parameters as named (prepared) statements: the database parses and plans such a statement once
 * per connection and then only binds and executes it. Drizzle writes every statement of one kind
 * with the same text and passes the values apart, so a server runs a few hundred texts over and
 * over (390–414 per instance in a 1.4-minute two-instance bench run, the most frequent 3,500
 * times); unnamed, each run was parsed and planned again (issue 20 targets 3 to 5,
 * bench/RESULTS.md).
 *
 * Hand-written: node-postgres has no statement cache of its own (it prepares only a query given a
 * `name`), and Drizzle names a statement only when the caller prepares it by hand, which a
 * transaction's queries (built on `tx`) cannot use.
 *
 * - At most `limit` texts per connection are named; later new texts run unnamed as before. A
 *   statement holds its parse tree and plan in the connection's backend, so this bounds its memory;
 *   the texts a server repeats come within its first minutes, and pooled connections idle for 10 s
 *   are closed and start over.
 * - PostgreSQL re-plans a named statement by itself after a migration changes a table it reads,
 *   but refuses it once its result columns change type ("cached plan must not change result type",
 *   SQLSTATE 0A000). That run fails; the text is then forgotten on that connection, so its next run
 *   prepares it anew under another name.
 * - Names are unique in the process, not only per connection: the embedded engine's connections
 *   share one PGlite session (db/engine-child.ts), which deallocates a connection's statements
 *   when it closes.
 */
import type pg from 'pg';

/** How many texts one connection names at most. */
const PREPARED_PER_CONNECTION = 200;

type Callback = (err: Error | null, result?: unknown) => void;
type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

const PLAN_CHANGED = 'cached plan must not change result type';

let connections = 0;

export function prepareRepeatedStatements(client: pg.ClientBase, limit = PREPARED_PER_CONNECTION): void {
  const names = new Map<string, string>();
  const prefix = `openpug_${connections++}_`;
  let made = 0;
  const query = client.query.bind(client) as QueryFn;
  const forgetOnPlanChange = (text: string, err: unknown) => {
    const e = err as { code?: string; message?: string } | null;
    if (e?.code === '0A000' && e.message?.includes(PLAN_CHANGED)) names.delete(text);
  };
  (client as unknown as { query: QueryFn }).query = (config, values, callback) => {
    // A text, or a config object (not a Query with its own submit) without a name; with parameters.
    const options = (typeof config === 'string' ? { text: config } : (config ?? {})) as {
      text?: unknown;
      values?: unknown;
      name?: unknown;
      submit?: unknown;
    };
    const text = options.text;
    const given = Array.isArray(values) ? values : options.values;
    if (
      typeof text !== 'string' ||
      typeof options.submit === 'function' ||
      options.name !== undefined ||
      !Array.isArray(given) ||
      given.length === 0
    )
      return query(config, values, callback);
    let name = names.get(text);
    if (name === undefined && names.size < limit) {
      name = `${prefix}${made++}`;
      names.set(text, name);
    }
    if (name === undefined) return query(config, values, callback);
    const named = { ...options, name };
    // pg-pool's query() passes a callback; Drizzle awaits the promise.
    const done = [values, callback].find((f): f is Callback => typeof f === 'function');
    if (done) {
      const wrapped: Callback = (err, result) => {
        if (err) forgetOnPlanChange(text, err);
        done(err, result);
      };
      return typeof values === 'function' ? query(named, wrapped) : query(named, values, wrapped);
    }
    return (query(named, values) as Promise<unknown>).catch((err: unknown) => {
      forgetOnPlanChange(text, err);
      throw err;
    });
  };
}
