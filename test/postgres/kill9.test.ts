import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../deployment/instances-kit.ts';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { checkLedger, crashUnderLoad, kill9, type startService } from '../crash/kill9-kit.ts';
import { pgUrl } from './pg-tools.ts';

const ROUNDS = 2;
const DB_NAME = `hardening_db_kill9_${process.pid}`;
const dir = mkdtempSync(path.join(tmpdir(), 'pix-kill9-pg-'));
let admin: pg.Client;
let url: string;
let current: ReturnType<typeof startService> | undefined;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const u = new URL(pgUrl());
  u.pathname = `/${DB_NAME}`;
  url = u.toString();
});
afterAll(async () => {
  if (current) await kill9(current.child);
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 under mixed load (PostgreSQL)', () => {
  it('two crashes under load, two restarts: ledger exact, nothing acknowledged lost or doubled', async () => {
    const acknowledged = await crashUnderLoad({ env: { DATABASE_URL: url, DATA_DIR: dir }, port: await freePort(), rounds: ROUNDS }, (service) => (current = service));
    const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
    try {
      await checkLedger(db.db, acknowledged);
    } finally {
      await db.close();
    }
  }, 180_000);
});
