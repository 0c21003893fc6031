import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
/** The machine image's Node (the README's two commands) and the LTS lines production runs on (22.13+, where the development tools start too, and 24). */
const SUPPORTED = ['20.19.0', '22.13.0', '24.0.0'];

interface Installed {
  name: string;
  version: string;
  node?: string;
  dir: string;
}

function readPackage(dir: string): Installed | undefined {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  return { name: pkg.name, version: pkg.version, node: pkg.engines?.node, dir };
}

function installedPackages(folder: string, found: Installed[] = []) {
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(folder, entry);
    if (entry.startsWith('@')) {
      installedPackages(dir, found);
      continue;
    }
    const pkg = readPackage(dir);
    if (pkg) found.push(pkg);
    if (existsSync(path.join(dir, 'node_modules'))) installedPackages(path.join(dir, 'node_modules'), found);
  }
  return found;
}

/** Where Node finds `name` from a package in `from`: its own node_modules, then each parent's. */
function resolveFrom(from: string, name: string): Installed | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = readPackage(path.join(dir, 'node_modules', name));
    if (pkg) return pkg;
    if (dir === path.dirname(dir) || path.resolve(dir) === path.resolve('.')) return undefined;
  }
}

/**
 * What `npm install --omit=dev` keeps (the container image's node_modules): the production
 * dependencies and everything they depend on, as installed here. A missing required dependency is an
 * error; a missing optional or peer one is not installed, so not run.
 */
function productionPackages(): Installed[] {
  const seen = new Map<string, Installed>();
  const missing: string[] = [];
  const visit = (from: string, deps: Record<string, string>, optional: Set<string>) => {
    for (const name of Object.keys(deps)) {
      const pkg = resolveFrom(from, name);
      if (!pkg) {
        if (!optional.has(name)) missing.push(`${name} (from ${from})`);
        continue;
      }
      if (seen.has(pkg.dir)) continue;
      seen.set(pkg.dir, pkg);
      const own = JSON.parse(readFileSync(path.join(pkg.dir, 'package.json'), 'utf8'));
      const optionalOwn = new Set([...Object.keys(own.optionalDependencies ?? {}), ...Object.keys(own.peerDependencies ?? {})]);
      visit(pkg.dir, { ...own.dependencies, ...own.optionalDependencies, ...own.peerDependencies }, optionalOwn);
    }
  };
  visit('.', manifest.dependencies, new Set(Object.keys(manifest.optionalDependencies ?? {})));
  expect(missing).toEqual([]);
  return [...seen.values()];
}

const outsideSupported = (packages: Installed[]) =>
  packages.filter((p) => p.node !== undefined && !SUPPORTED.every((v) => semver.satisfies(v, p.node!))).map((p) => `${p.name}@${p.version} (${p.node})`);

describe('supported Node versions', () => {
  it('engines admits Node 20.19+, 22 and 24', () => {
    for (const version of SUPPORTED) expect(semver.satisfies(version, manifest.engines.node), version).toBe(true);
    expect(semver.satisfies('20.18.0', manifest.engines.node)).toBe(false);
  });

  it('every production dependency, and every package it brings, declares a Node range that admits all three (kysely 0.29 would not: it needs 22)', () => {
    const production = productionPackages();
    // The walk reached the whole tree: the direct dependencies and what they bring (fastify's own).
    const names = new Set(production.map((p) => p.name));
    for (const name of [...Object.keys(manifest.dependencies), 'find-my-way', 'avvio']) expect(names.has(name), name).toBe(true);
    expect(outsideSupported(production)).toEqual([]);
  });

  it('so does every installed package, development tools included: no exception', () => {
    expect(outsideSupported(installedPackages('node_modules'))).toEqual([]);
  });

  it('the production start needs neither tsx nor typescript at run time', () => {
    expect(manifest.dependencies.tsx).toBeUndefined();
    expect(manifest.dependencies.typescript).toBeUndefined();
    expect(manifest.devDependencies.tsx).toBeDefined();
  });
});

describe('Node versions in the README and CI (issue 25)', () => {
  it('the README names Node 22 or 24 for production; .ci/run runs the postgres tier on both and the system tier on 24', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/\*\*Supported Node\.js versions:\*\* production runs on \*\*Node 22 or 24\*\*/);
    const ci = readFileSync('.ci/run', 'utf8');
    expect(ci).toContain('PRODUCTION_NODES=(22 24)');
    expect(ci).toMatch(/npx -y node@24 node_modules\/vitest\/vitest\.mjs run --project system/);
    // The README's command itself runs on the machine's Node.
    expect(ci).toMatch(/\nnpm test\b/);
    expect(ci).toMatch(/npx -y "node@\$major" node_modules\/vitest\/vitest\.mjs run --project postgres/);
    // The postgres runs come after PostgreSQL was started.
    expect(ci.lastIndexOf('--project postgres')).toBeGreaterThan(ci.indexOf('pg_isready'));
  });
});
