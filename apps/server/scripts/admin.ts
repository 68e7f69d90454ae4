/**
 * Admin CLI: grant or revoke the ADMIN role, or list admins, on the configured database
 * (DATABASE_URL, else the PGlite database in DATA_DIR — stop the server first, PGlite allows
 * one process only).
 *
 *   npm run admin -w @openpug/server -- grant <email>
 *   npm run admin -w @openpug/server -- revoke <email>
 *   npm run admin -w @openpug/server -- list
 *
 * (or `npm run admin -- grant <email>` inside apps/server). An e-mail listed in ADMIN_EMAILS
 * makes its account ADMIN once, when the address is verified; grant and revoke decide for good.
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { type Database, openPglite, openPostgres } from '../src/db/client';
import { type DataDirLock, lockDataDir } from '../src/db/lock';
import { users } from '../src/modules/accounts/schema';

const usage = 'usage: npm run admin -- grant <email> | revoke <email> | list';

async function main(argv: string[]): Promise<number> {
  const [command, rawEmail] = argv;
  if (!command || (command !== 'list' && !rawEmail) || !['grant', 'revoke', 'list'].includes(command)) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  let database: Database;
  if (config.DATABASE_URL) database = openPostgres(config.DATABASE_URL);
  else {
    lock = lockDataDir(config.dataDir);
    database = openPglite(path.join(config.dataDir, 'db'));
  }
  try {
    await database.migrate();
    const db = database.db;
    if (command === 'list') {
      const admins = await db
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.role, 'ADMIN'));
      for (const a of admins) console.log(`${a.email ?? '(no e-mail)'}\t${a.name ?? ''}`);
      if (admins.length === 0) console.log('no admins');
      return 0;
    }
    const email = rawEmail.trim().toLowerCase();
    const role = command === 'grant' ? 'ADMIN' : 'USER';
    const updated = await db
      .update(users)
      .set({ role, roleDecided: true })
      .where(eq(users.email, email))
      .returning({ id: users.id });
    if (updated.length === 0) {
      console.error(`no account with the e-mail ${email}`);
      return 1;
    }
    console.log(`${email} is now ${role}`);
    return 0;
  } finally {
    await database.close();
    lock?.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`admin: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  },
);
