import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PORTAL = fileURLToPath(new URL('../../src/portal/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the portal receives services, never the database', () => {
  it('no portal file but its read repository touches the database, and only portal-services.ts sees the container', () => {
    const offenders: string[] = [];
    for (const path of filesUnder(PORTAL)) {
      const name = relative(PORTAL, path);
      const text = readFileSync(path, 'utf8');
      if (name !== 'portal-reads.repo.ts' && (/from 'kysely'/.test(text) || /\bc\.db\b|\.db\b\s*[,)]/.test(text))) offenders.push(`${name}: database`);
      if (name !== 'portal-services.ts' && /container\.ts'/.test(text)) offenders.push(`${name}: container`);
    }
    expect(offenders).toEqual([]);
  });
});
