import { randomBytes } from 'node:crypto';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';

/**
 * The one-shot migration step of a deployment (`node dist/migrate-main.js`, compose's `migrate`):
 * applies pending migrations to DATABASE_URL (or the embedded database in DATA_DIR) and exits.
 * Instances also migrate at start, taking turns on an advisory lock; running this first keeps a
 * long migration out of their start-up and stops a rollout whose migration fails.
 */
async function main() {
  // Migrations read only the database settings: an unused random admin token satisfies production's
  // strength rule, and the PIX network (production's provider) is the instances' to check at start.
  const config = loadConfig({
    ...process.env,
    ADMIN_TOKEN: process.env.ADMIN_TOKEN || randomBytes(32).toString('base64url'),
    MODE: 'sandbox',
    PIX_NETWORK: 'sandbox',
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(database.db);
    console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'up to date: no migration to apply');
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
