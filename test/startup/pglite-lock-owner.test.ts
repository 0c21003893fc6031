import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase } from '../../src/db/database.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A process holding the embedded database open, until it is killed. */
async function holder(dir: string) {
  const script = `const m = await import('./src/db/database.ts'); await m.openDatabase({ dataDir: ${JSON.stringify(dir)} }); console.log('ready'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${stderr}`)));
  });
  return child;
}

describe('PGlite folder lock after a crash', () => {
  it('refuses while the owner runs; once the owner is killed -9 the next start opens at once (no 15 s wait)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-lock-'));
    dirs.push(dir);
    const child = await holder(dir);
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    // The lock folder is still there and fresh (the owner died without releasing it): only the
    // owner check can tell it is free.
    const db = await openDatabase({ dataDir: dir });
    try {
      const { rows } = await db.db.selectNoFrom((e) => e.lit(1).as('one')).execute().then((r) => ({ rows: r }));
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
