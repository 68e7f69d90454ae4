// Module boundaries (docs/architecture.md, "Boundaries"; issue 12 item 8). Run by `npm run lint`
// and by the lint step of `npm test`: `npm run lint:boundaries`.
//
// - A server module (`apps/server/src/modules/<m>/`) is used by others only through its public
//   entry: `service.ts` (its rules, see docs/architecture.md) or an `index.ts`; `app.ts`, which
//   lists the modules, also imports `routes.ts` (the plugin). Its tables (`schema.ts`) are for
//   itself and the db layer (`db/schema.ts`, other modules' `schema.ts` for foreign keys):
//   another module asks the owner instead. The exceptions are listed below with their reason.
// - A web feature (`apps/web/src/features/<f>/`) uses another feature only through its
//   `index.ts`. Screens, `app/` and `ui/` compose features and may load a feature's component
//   file directly (lazy chunks: `app/layout/slots.tsx`, the chat window).
// - Tests (`*.test.ts(x)`, `apps/server/test/`, `testing/`) may reach anything: they arrange state
//   in tables directly.
//
// No import is let through: the 208 that broke the internals rules when they came are behind the
// entries now (a `service.ts` re-export, or a leaf `index.ts` of files that import neither the
// module's routes nor its service). Barrel entries re-exporting every file (plugins included)
// were tried and reverted: they closed import cycles in which a top-level
// `const admin = { onRequest: requireAdmin }` read `undefined` under Vitest (drops' admin routes
// answered a player 200). Re-export from `service.ts` / `index.ts` only what does not import the
// module's routes.
//
// Paths may sit under a prefix (`(^|/)`) so that `apps/server/test/boundaries.test.ts` can check
// the fixture tree in `scripts/boundaries-fixture/`, which proves that a violation fails.

const TESTS = ['\\.test\\.tsx?$', '(^|/)apps/server/test/', '/testing/', '(^|/)apps/web/src/test/'];
const SERVER_MODULE = '(^|/)apps/server/src/modules/';

/** Production code that reads or writes another module's tables, and why that is the right place. */
const FOREIGN_TABLE_EXCEPTIONS = [
  // The GDPR export and the account erasure read and erase every module's rows of one user in one
  // transaction, on purpose in one place so that nothing is forgotten (docs/architecture.md).
  `${SERVER_MODULE}privacy/service\\.ts$`,
  // Read models: the leaderboard snapshot and the stats are single SQL aggregates over users,
  // matches and match players; going through services would load every match into memory.
  `${SERVER_MODULE}ranking/(service|leaderboard)\\.ts$`,
  // Elo history replays a corrected or voided match through the players' later matches, inside
  // the admin's transaction (a pure rating library over the matches tables).
  `${SERVER_MODULE}rating/history\\.ts$`,
  // The admin's match tools (move, swap, result, correct, void) rewrite a match's rows and queue
  // entries in the admin's one audited transaction.
  `${SERVER_MODULE}admin/match-tools\\.ts$`,
  // MatchZy webhooks write the rounds and events of a match in the ingestion's transaction, which
  // also holds the game server's lease.
  `${SERVER_MODULE}gameservers/ingest\\.ts$`,
  // A player's rank (accounts' ranksOfUsers) counts the finished placement matches in the same SQL
  // statement that orders the users, so that one query ranks a whole page.
  `${SERVER_MODULE}accounts/users\\.ts$`,
  // The admin CLI works on the database itself, mostly with the server stopped.
  '(^|/)apps/server/scripts/admin\\.ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'server-module-internals',
      comment:
        'A server module imports another module only through its entry, modules/<m>/service.ts ' +
        'or modules/<m>/index.ts (tables: see server-foreign-tables).',
      severity: 'error',
      from: { path: `${SERVER_MODULE}([^/]+)/`, pathNot: TESTS },
      to: {
        path: `${SERVER_MODULE}[^/]+/`,
        pathNot: [`${SERVER_MODULE}$2/`, `${SERVER_MODULE}[^/]+/(index|service|schema)\\.ts$`],
      },
    },
    {
      name: 'server-outside-internals',
      comment:
        'Code outside the modules (homeserver, jobs, lib, scripts, …) imports a module only ' +
        'through its entry, modules/<m>/service.ts or index.ts; app.ts also its routes.ts.',
      severity: 'error',
      from: {
        path: '(^|/)apps/server/(src|scripts)/',
        pathNot: [SERVER_MODULE, '(^|/)apps/server/src/app\\.ts$', ...TESTS],
      },
      to: { path: `${SERVER_MODULE}[^/]+/`, pathNot: [`${SERVER_MODULE}[^/]+/(index|service|schema)\\.ts$`] },
    },
    {
      name: 'server-app-wiring',
      comment: 'app.ts lists the modules: their plugins (routes.ts) and entries, nothing internal.',
      severity: 'error',
      from: { path: '(^|/)apps/server/src/app\\.ts$' },
      to: {
        path: `${SERVER_MODULE}[^/]+/`,
        pathNot: [`${SERVER_MODULE}[^/]+/(index|service|schema|routes)\\.ts$`],
      },
    },
    {
      name: 'server-foreign-tables',
      comment:
        "A module reads and writes only its own tables; another module's data comes from that " +
        "module's entry. Allowed: schema.ts (foreign keys), the db layer, the listed exceptions.",
      severity: 'error',
      from: {
        path: `${SERVER_MODULE}([^/]+)/`,
        pathNot: [`${SERVER_MODULE}[^/]+/schema\\.ts$`, ...TESTS, ...FOREIGN_TABLE_EXCEPTIONS],
      },
      to: { path: `${SERVER_MODULE}[^/]+/schema\\.ts$`, pathNot: [`${SERVER_MODULE}$2/`] },
    },
    {
      name: 'server-outside-tables',
      comment: "Outside the modules, only the db layer (db/schema.ts) imports a module's tables.",
      severity: 'error',
      from: {
        path: '(^|/)apps/server/(src|scripts)/',
        pathNot: [SERVER_MODULE, '(^|/)apps/server/src/db/', ...TESTS, ...FOREIGN_TABLE_EXCEPTIONS],
      },
      to: { path: `${SERVER_MODULE}[^/]+/schema\\.ts$` },
    },
    {
      name: 'web-feature-internals',
      comment: 'A web feature imports another feature only through its entry, features/<f>/index.ts.',
      severity: 'error',
      from: { path: '(^|/)apps/web/src/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '(^|/)apps/web/src/features/[^/]+/',
        pathNot: ['(^|/)apps/web/src/features/$2/', '(^|/)apps/web/src/features/[^/]+/index\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
