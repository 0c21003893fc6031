import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config.ts';

/** 32 random bytes in base64url: what `openssl rand -base64 32` gives. */
const STRONG_ADMIN_TOKEN = 'q7Xv2mKp9LsR4tWz8YbN3cFh6JdG1eUa5QwE0rTyViO';

describe('configuration (decisions section 1)', () => {
  it('has the documented defaults and is frozen', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicHost: '127.0.0.1:3000',
      databaseUrl: undefined,
      dataDir: './data',
      mode: 'sandbox',
      institutionIspb: '99999999',
      institutionName: 'PIX Account Sandbox',
      sandboxSettlementDelayMs: 1000,
      sandboxMinExpirationS: 60,
      webhookRoutesEnabled: false,
      adminTokenGenerated: true,
    });
    expect(config.adminToken).toMatch(/^adm_/);
    expect(Object.isFrozen(config)).toBe(true);
    expect(loadConfig({ PORT: '8080' }).publicHost).toBe('127.0.0.1:8080');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ MODE: 'staging' }, 'MODE'],
    [{ MODE: 'production' }, 'ADMIN_TOKEN'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ INSTITUTION_ISPB: '123' }, 'INSTITUTION_ISPB'],
    [{ SANDBOX_SETTLEMENT_DELAY_MS: '-1' }, 'SANDBOX_SETTLEMENT_DELAY_MS'],
    [{ SANDBOX_MIN_EXPIRATION_S: '10' }, 'SANDBOX_MIN_EXPIRATION_S'],
    [{ WEBHOOK_ROUTES_ENABLED: 'yes' }, 'WEBHOOK_ROUTES_ENABLED'],
    [{ PUBLIC_HOST: 'https://pix.example.com' }, 'PUBLIC_HOST'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ REQUIRE_CERTIFICATE_BOUND_TOKENS: 'yes' }, 'REQUIRE_CERTIFICATE_BOUND_TOKENS'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message).toContain(variable);
    }
  });

  it('production needs an admin token and takes the given one', () => {
    const config = loadConfig({ MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN });
    expect(config.mode).toBe('production');
    expect(config.adminToken).toBe(STRONG_ADMIN_TOKEN);
    expect(config.adminTokenGenerated).toBe(false);
    const hex = 'a3f1c9e07b5d2846f0e1d2c3b4a5968778695a4b3c2d1e0f9e8d7c6b5a493827'; // openssl rand -hex 32
    expect(loadConfig({ MODE: 'production', ADMIN_TOKEN: hex }).adminToken).toBe(hex);
  });

  it.each([
    ['a-long-enough-admin-token', 'short'],
    ['passwordpasswordpasswordpassword', 'few distinct characters'],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'one character'],
    ['01234567890123456789012345678901234567890123456789', 'ten distinct characters'],
  ])('production refuses a guessable ADMIN_TOKEN (%s: %s) with a message that says how to make one', (token) => {
    expect(() => loadConfig({ MODE: 'production', ADMIN_TOKEN: token })).toThrow(/ADMIN_TOKEN is too easy to guess for production.*openssl rand -base64 32/);
    // The sandbox keeps accepting it: nothing there is worth guessing.
    expect(loadConfig({ ADMIN_TOKEN: token }).adminToken).toBe(token);
  });

  it('REQUIRE_CERTIFICATE_BOUND_TOKENS: on by default in production, off in sandbox, either way when set', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN };
    expect(loadConfig(production).requireCertificateBoundTokens).toBe(true);
    expect(loadConfig({ ...production, REQUIRE_CERTIFICATE_BOUND_TOKENS: 'false' }).requireCertificateBoundTokens).toBe(false);
    expect(loadConfig({}).requireCertificateBoundTokens).toBe(false);
    expect(loadConfig({ REQUIRE_CERTIFICATE_BOUND_TOKENS: 'true' }).requireCertificateBoundTokens).toBe(true);
  });

  it('METRICS_TOKEN: refused when guessable in production, or equal to ADMIN_TOKEN', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN };
    expect(loadConfig(production).metricsToken).toBeUndefined();
    expect(loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(10) + STRONG_ADMIN_TOKEN }).metricsToken).toBe('x'.repeat(10) + STRONG_ADMIN_TOKEN);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: 'metrics-token-123' })).toThrow(/METRICS_TOKEN is too easy to guess for production/);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: STRONG_ADMIN_TOKEN })).toThrow(/METRICS_TOKEN must differ from ADMIN_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });

  it('WORKERS: 1 on PGlite (more refused, saying why), the number of cores on PostgreSQL, or as set there', () => {
    const postgres = { DATABASE_URL: 'postgres://u@db:5432/pix' };
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig(postgres).workers).toBe(availableParallelism());
    expect(loadConfig({ ...postgres, WORKERS: '3' }).workers).toBe(3);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      'Invalid configuration: WORKERS must be 1 with the embedded database (PGlite can be opened by one process only), got 2; set DATABASE_URL to run several processes on PostgreSQL',
    );
    expect(() => loadConfig({ ...postgres, WORKERS: '0' })).toThrow(/WORKERS must be between 1 and 256/);
    expect(() => loadConfig({ ...postgres, WORKERS: 'all' })).toThrow(/WORKERS must be a whole number/);
  });
});
