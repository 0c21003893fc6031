import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
/** The machine image's Node (the README's two commands) and the active LTS (production). */
const SUPPORTED = ['20.19.0', '24.0.0'];

function installedPackages(folder: string, found: Array<{ name: string; version: string; node?: string }> = []) {
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(folder, entry);
    if (entry.startsWith('@')) {
      installedPackages(dir, found);
      continue;
    }
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      found.push({ name: pkg.name, version: pkg.version, node: pkg.engines?.node });
    }
    if (existsSync(path.join(dir, 'node_modules'))) installedPackages(path.join(dir, 'node_modules'), found);
  }
  return found;
}

describe('supported Node versions', () => {
  it('engines admits Node 20.19+ and Node 24', () => {
    for (const version of SUPPORTED) expect(semver.satisfies(version, manifest.engines.node), version).toBe(true);
    expect(semver.satisfies('20.18.0', manifest.engines.node)).toBe(false);
  });

  it('every installed package declares a Node range that admits both (kysely 0.29 would not: it needs 22)', () => {
    const outside = installedPackages('node_modules')
      .filter((p) => p.node !== undefined && !SUPPORTED.every((v) => semver.satisfies(v, p.node!)))
      .map((p) => `${p.name}@${p.version} (${p.node})`)
      // The one known exception (docs/decisions.md, "Node 20 and the /docs renderer"): every release of
      // Scalar, the /docs renderer, declares Node >= 22 for itself and its parts (undici 8 comes with
      // its json-magic). It serves a static page and runs on Node 20 (test/docs runs there); nothing
      // else may step outside the range.
      .filter((entry) => !entry.startsWith('@scalar/') && !entry.startsWith('undici@8.'));
    expect(outside).toEqual([]);
  });

  it('the production start needs neither tsx nor typescript at run time', () => {
    expect(manifest.dependencies.tsx).toBeUndefined();
    expect(manifest.dependencies.typescript).toBeUndefined();
    expect(manifest.devDependencies.tsx).toBeDefined();
  });
});
