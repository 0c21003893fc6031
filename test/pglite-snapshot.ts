import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrate } from '../src/db/migrate.ts';
import { PGliteDialect } from '../src/db/pglite-dialect.ts';

// An empty PGlite cluster costs an initdb, then every migration and function file: 2-3 s on an idle
// 2-core machine, 10+ s when it is busy, for each of the ~120 harnesses of `npm test`. Loading one
// already migrated data folder costs a third of that. The snapshot is made once per content of
// src/db/migrations and src/db/functions (and PGlite version), kept under node_modules/.cache, and
// loaded by every in-memory harness; the container's own `migrate` still runs on it (it then finds
// nothing to do, or applies whatever is newer than the snapshot).

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = ['src/db/migrations', 'src/db/functions'];
const cacheDir = path.join(root, 'node_modules', '.cache', 'pix-account-service');

/** What the snapshot depends on: every migration and function file (name and content), and PGlite's version. */
export function snapshotKey(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  for (const folder of folders) {
    for (const file of readdirSync(path.join(root, folder)).sort()) {
      hash.update(`${folder}/${file}\n`);
      hash.update(readFileSync(path.join(root, folder, file)));
      hash.update('\n');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;

/** The migrated data folder (once per worker process; files of one worker share it, see vitest.config.ts). */
export function migratedSnapshot(): Promise<Blob> {
  snapshot ??= loadOrMake().catch((error: unknown) => {
    snapshot = undefined;
    throw error;
  });
  return snapshot;
}

async function loadOrMake(): Promise<Blob> {
  const file = path.join(cacheDir, `pglite-migrated-${snapshotKey()}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const pglite = await PGlite.create();
  try {
    await migrate(new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) }));
    const dump = await pglite.dumpDataDir('none');
    mkdirSync(cacheDir, { recursive: true });
    // Workers may make it at the same time: each writes its own file, the rename is atomic.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
    renameSync(temporary, file);
    return dump;
  } finally {
    await pglite.close();
  }
}
