import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No container engine runs on the CI machine (.ci/run says so when it skips building): these check
// what can be checked without one.
const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true });
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('Dockerfile', () => {
  it('builds in one stage and runs the compiled service in another, as a non-root user, with only production dependencies and a HEALTHCHECK', () => {
    const stages = dockerfile.match(/^FROM /gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^FROM node:24/m);
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    const runStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runStage).toMatch(/^USER node$/m);
    expect(runStage).toMatch(/^HEALTHCHECK .*\n?.*\/health/m);
    expect(runStage).toMatch(/CMD \["node", "--enable-source-maps", "dist\/main\.js"\]/);
    expect(runStage).not.toMatch(/tsx/);
  });
});

describe('deploy/compose.yaml', () => {
  const services = compose.services as Record<string, any>;

  it('has PostgreSQL, a one-shot migration, two instances, nginx, and Prometheus in the monitoring profile', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'migrate', 'nginx', 'postgres', 'prometheus']);
    expect(services.prometheus.profiles).toEqual(['monitoring']);
    // The scraper is not on the edge network, whose addresses the instances trust as their proxy.
    expect(services.prometheus.networks).toEqual(['monitoring']);
    expect(services.migrate.command).toEqual(['node', 'dist/migrate-main.js']);
    expect(services.migrate.restart).toBe('no');
    expect(services.migrate.depends_on.postgres.condition).toBe('service_healthy');
  });

  it('starts the instances only after the migration succeeded, in production mode, trusting only nginx', () => {
    for (const name of ['app1', 'app2']) {
      const app = services[name];
      expect(app.image).toBe(services.migrate.image);
      // Built, not pulled: a local tag exists in no registry.
      expect(app.build).toEqual(services.migrate.build);
      expect(app.build.context).toBe('..');
      // Clients reach the instances through nginx over https: tokens' iss and discovery say so.
      expect(app.environment.PUBLIC_URL).toBe('${PUBLIC_URL:-https://localhost:8443}');
      expect(app.depends_on.migrate.condition).toBe('service_completed_successfully');
      expect(app.environment.MODE).toBe('production');
      // The edge network's subnet, not a pinned address (issue 25): any address the engine gives nginx.
      expect(app.environment.TRUSTED_PROXIES).toBe(compose.networks.edge.ipam.config[0].subnet);
      expect(app.networks).toEqual(['edge', 'backend', 'monitoring']);
      expect(app.environment.DATABASE_URL).toBe(services.migrate.environment.DATABASE_URL);
      // Production needs its PIX provider (issue 13); the client certificate is mounted read-only.
      expect(app.environment.PIX_NETWORK).toBe('provider');
      expect(app.environment.PROVIDER_CERT_FILE).toBe('/etc/pix-provider/client-cert.pem');
      expect(app.volumes).toContain('./provider:/etc/pix-provider:ro');
    }
  });

  it('fills the tested nginx template with both instances as the upstream', () => {
    const nginx = services.nginx;
    expect(nginx.volumes).toContain('./nginx/pix-account-service.conf.template:/etc/nginx/templates/default.conf.template:ro');
    // With the template's line format: an instance refused once is tried again after 1 s, not nginx's 10 s.
    expect(nginx.environment.UPSTREAM_SERVERS).toBe('server app1:3000 max_fails=1 fail_timeout=1s; server app2:3000 max_fails=1 fail_timeout=1s;');
    const template = readFileSync('deploy/nginx/pix-account-service.conf.template', 'utf8');
    for (const placeholder of template.match(/\$\{[A-Z_]+\}/g) ?? []) {
      expect(nginx.environment, placeholder).toHaveProperty(placeholder.slice(2, -1));
    }
  });
});

describe('the compose networks (Docker and Podman alike: no pinned container address)', () => {
  const services = compose.services as Record<string, any>;

  it('nginx is on the edge network only, with no fixed address; PostgreSQL and the migration are not on it', () => {
    expect(services.nginx.networks).toEqual(['edge']);
    expect(JSON.stringify(compose)).not.toContain('ipv4_address');
    expect(services.postgres.networks).toEqual(['backend']);
    expect(services.migrate.networks).toEqual(['backend']);
    const subnet = compose.networks.edge.ipam.config[0].subnet as string;
    expect(subnet).toBe('${EDGE_SUBNET:-10.89.1.0/24}');
  });

  it('TRUSTED_PROXIES takes the subnet as compose renders it (a CIDR), and believes nginx at any address in it', () => {
    const rendered = '10.89.1.0/24'; // ${EDGE_SUBNET:-10.89.1.0/24} with EDGE_SUBNET unset
    expect(loadConfig({ TRUSTED_PROXIES: rendered }).trustedProxies).toEqual([rendered]);
    // The proxy check itself (any address in a CIDR) is test/deployment/trusted-proxies.test.ts.
  });
});

describe('deploy/smoke-test.sh says what is missing before it starts', () => {
  /** Runs the script with PATH = a folder holding only `tools` (links to the real ones) and `fakes` (scripts). */
  function runWith(tools: string[], fakes: Record<string, string> = {}) {
    const bin = mkdtempSync(path.join(tmpdir(), 'pix-smoke-path-'));
    try {
      for (const tool of ['bash', 'dirname', ...tools]) {
        const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found) symlinkSync(found, path.join(bin, tool));
      }
      for (const [name, script] of Object.entries(fakes)) {
        writeFileSync(path.join(bin, name), `#!/bin/sh\n${script}\n`);
        chmodSync(path.join(bin, name), 0o755);
      }
      return spawnSync(path.join(bin, 'bash'), ['deploy/smoke-test.sh'], { encoding: 'utf8', env: { PATH: bin } });
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }

  it('no engine at all; docker without its compose plugin; podman without compose; curl missing: exit 2 naming each', () => {
    const none = runWith(['curl', 'openssl', 'node']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('missing:\n  - a container engine: docker with its compose plugin, or podman with podman-compose');
    const plugin = runWith(['curl', 'openssl', 'node'], { docker: 'exit 1' });
    expect(plugin.status).toBe(2);
    expect(plugin.stderr).toContain("docker's compose plugin (docker compose; Debian: apt-get install docker-compose-plugin)");
    const podman = runWith(['curl', 'openssl', 'node'], { podman: 'exit 1' });
    expect(podman.stderr).toContain('podman compose (it runs podman-compose or docker-compose');
    const curl = runWith(['openssl', 'node'], { docker: 'exit 1' });
    expect(curl.stderr).toMatch(/missing:\n {2}- curl\n {2}- docker's compose plugin/);
    // Nothing was started: the checks come first.
    for (const run of [none, plugin, podman, curl]) expect(run.stdout).not.toContain('compose smoke test on:');
  });

  it('podman compose is used (with the docker image format) when docker compose is not there', () => {
    const smoke = readFileSync('deploy/smoke-test.sh', 'utf8');
    expect(smoke).toMatch(/podman compose version[^\n]*\n\s+engine=\(podman compose\)\n\s+export BUILDAH_FORMAT=docker/);
    expect(smoke).toContain('compose() { "${engine[@]}" -p pix-smoke');
    expect(smoke.indexOf('exit 2')).toBeLessThan(smoke.indexOf('up -d --build'));
  });

  it('the README says how to build with podman keeping the HEALTHCHECK (--format docker)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('podman build --format docker');
    expect(readme).toContain('BUILDAH_FORMAT=docker podman compose');
  });
});

describe('deploy/.env.example and the CI run', () => {
  it('leaves both secrets empty, so compose refuses to start until they are set (no known admin token)', () => {
    const example = Object.fromEntries(
      readFileSync('deploy/.env.example', 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(example).toMatchObject({ POSTGRES_PASSWORD: '', ADMIN_TOKEN: '' });
    const env = compose.services.app1.environment;
    expect(env.ADMIN_TOKEN).toMatch(/^\$\{ADMIN_TOKEN:\?/);
    expect(env.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
  });

  it('.ci/run builds the image and runs deploy/smoke-test.sh when an engine answers, and says so when it skips', () => {
    const ci = readFileSync('.ci/run', 'utf8');
    const block = ci.slice(ci.indexOf('docker info'), ci.indexOf('fi', ci.indexOf('SKIPPED: no container engine')));
    expect(block).toContain('docker build');
    expect(block).toContain('bash deploy/smoke-test.sh');
    expect(block).toContain('SKIPPED: no container engine');
    const smoke = readFileSync('deploy/smoke-test.sh', 'utf8');
    for (const step of ['up -d --build', '/ready', '/admin/accounts', '--cert', 'PUB_CERT_HEADER_MISSING', 'app1 app2', 'down -v']) {
      expect(smoke, step).toContain(step);
    }
  });
});
