import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../deployment/instances-kit.ts';
import { afterAll, describe, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { checkLedger, crashUnderLoad, kill9, type startService } from './kill9-kit.ts';

// One crash: each PGlite restart compiles its WebAssembly again (the PostgreSQL variant does two).
const ROUNDS = 1;
const dir = mkdtempSync(path.join(tmpdir(), 'pix-kill9-'));
let current: ReturnType<typeof startService> | undefined;
afterAll(async () => {
  if (current) await kill9(current.child);
  rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 under mixed load (PGlite)', () => {
  it('a crash under load, a restart at once: ledger exact, nothing acknowledged lost or doubled', async () => {
    const acknowledged = await crashUnderLoad({ env: { DATA_DIR: dir }, port: await freePort(), rounds: ROUNDS }, (service) => (current = service));
    const db = await openDatabase({ dataDir: dir });
    try {
      await checkLedger(db.db, acknowledged);
    } finally {
      await db.close();
    }
  }, 180_000);
});
