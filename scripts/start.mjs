// `npm start`: installs what is missing, builds what is stale, then runs the server with the
// embedded defaults (PGlite in ./data, embedded chat server, dev outbox) on http://localhost:3000.
// Migrations are applied by the server at start.
import { ensureBuilt, ensureInstalled, root } from './lib.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24();

ensureInstalled();
ensureBuilt();
process.chdir(root);
await import('../apps/server/dist/main.js');
