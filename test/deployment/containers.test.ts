import { readFileSync } from 'node:fs';
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

  it('has PostgreSQL, a one-shot migration, two instances and nginx', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'migrate', 'nginx', 'postgres']);
    expect(services.migrate.command).toEqual(['node', 'dist/migrate-main.js']);
    expect(services.migrate.restart).toBe('no');
    expect(services.migrate.depends_on.postgres.condition).toBe('service_healthy');
  });

  it('starts the instances only after the migration succeeded, in production mode, trusting only nginx', () => {
    const nginxAddress = services.nginx.networks.backend.ipv4_address;
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
      expect(app.environment.TRUSTED_PROXIES).toBe(nginxAddress);
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
