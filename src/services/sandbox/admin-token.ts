import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';

/** Where a generated sandbox admin token is kept, or undefined when nothing is kept (DATA_DIR=memory://). */
export function adminTokenFile(config: Pick<Config, 'dataDir'>): string | undefined {
  return config.dataDir === 'memory://' ? undefined : path.resolve(config.dataDir, 'admin-token');
}

/** A kept token is used only if it still looks like one (a file emptied or edited by hand is replaced). */
const usable = (token: string) => token.length >= 16 && /^\S+$/.test(token);

function readKept(file: string): string | undefined {
  try {
    const token = readFileSync(file, 'utf8').trim();
    return usable(token) ? token : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The sandbox admin token across restarts (decisions section 7): a token generated at start (no
 * ADMIN_TOKEN) is written to `${DATA_DIR}/admin-token` (mode 0600) and the next start reuses it, so
 * scripts keep working; an explicit ADMIN_TOKEN always wins and nothing is written; with
 * `DATA_DIR=memory://` nothing is kept. Runs once, before any worker is forked.
 */
export function keepGeneratedAdminToken(config: Config): Config {
  const file = adminTokenFile(config);
  if (!config.adminTokenGenerated || file === undefined) return config;
  const kept = readKept(file);
  if (kept !== undefined) {
    // Only its owner reads it, even if the file was copied in with looser permissions.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return Object.freeze({ ...config, adminToken: kept });
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: two processes starting at once on one folder (PostgreSQL) agree on the first one's token.
    writeFileSync(file, `${config.adminToken}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const other = readKept(file);
    if (other !== undefined) return Object.freeze({ ...config, adminToken: other });
    // An unusable file (emptied, edited): replaced by this start's token.
    writeFileSync(file, `${config.adminToken}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return config;
}
