import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config, { SYSTEM_FILES } from '../../vitest.config.ts';

// Issue 24: a test moved out of `npm test` into another tier still runs in CI, and nothing skips there.
describe('test tiers (docs/testing.md)', () => {
  const ci = readFileSync('.ci/run', 'utf8');
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;

  it('npm test is the unit tier, and .ci/run runs it, the system tier and the postgres tier', () => {
    expect(scripts.test).toBe('tsc --noEmit && vitest run --project unit');
    expect(scripts['test:system']).toBe('vitest run --project system');
    expect(scripts['test:pg']).toBe('vitest run --project postgres');
    expect(scripts['test:watch']).toBe('vitest --project unit');
    expect(ci).toMatch(/\nnpm test -- /);
    expect(ci).toMatch(/vitest\.mjs run --project system/);
    expect(ci).toMatch(/vitest\.mjs run --project postgres/);
  });

  it('the unit tier leaves out exactly the system files and the postgres folder', () => {
    const projects = (config as { test: { projects: Array<{ test: { name: string; include: string[]; exclude?: string[] } }> } }).test.projects;
    const unit = projects.find((p) => p.test.name === 'unit')!;
    const system = projects.find((p) => p.test.name === 'system')!;
    expect(unit.test.exclude).toEqual(['test/postgres/**', ...SYSTEM_FILES]);
    expect(system.test.include).toEqual(SYSTEM_FILES);
  });

  it('.ci/run installs its tools without a fallback and makes every optional suite required', () => {
    expect(ci).not.toMatch(/apt-get[^\n]*\|\|/);
    expect(ci).not.toMatch(/will be skipped/i);
    for (const name of ['PORTAL_BROWSER_REQUIRED=1', 'PROMTOOL_REQUIRED=1', 'NGINX_REQUIRED=1', 'CURL_REQUIRED=1', 'POSTGRES_CLUSTER_REQUIRED=1', 'PGBOUNCER_REQUIRED=1']) {
      expect(ci).toContain(name);
    }
  });
});
