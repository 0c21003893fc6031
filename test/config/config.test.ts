import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { providerEnv } from '../provider-env.ts';

/** 32 random bytes in base64url: what `openssl rand -base64 32` gives. */
const STRONG_ADMIN_TOKEN = 'q7Xv2mKp9LsR4tWz8YbN3cFh6JdG1eUa5QwE0rTyViO';
/** Production needs a PIX network (issue 13) and PostgreSQL (issue 25; nothing connects to it here). */
const PROVIDER: Record<string, string> = { ...providerEnv(), DATABASE_URL: 'postgres://pix@db.example:5432/pix' };

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
    [{ MODE: 'production', DATABASE_URL: 'postgres://pix@db.example:5432/pix' }, 'ADMIN_TOKEN'],
    [{ MODE: 'production' }, 'DATABASE_URL'],
    [{ ALLOW_EMBEDDED_DATABASE: 'yes' }, 'ALLOW_EMBEDDED_DATABASE'],
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
    const config = loadConfig({ MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...PROVIDER });
    expect(config.mode).toBe('production');
    expect(config.adminToken).toBe(STRONG_ADMIN_TOKEN);
    expect(config.adminTokenGenerated).toBe(false);
    const hex = 'a3f1c9e07b5d2846f0e1d2c3b4a5968778695a4b3c2d1e0f9e8d7c6b5a493827'; // openssl rand -hex 32
    expect(loadConfig({ MODE: 'production', ADMIN_TOKEN: hex, ...PROVIDER }).adminToken).toBe(hex);
  });

  it.each([
    ['a-long-enough-admin-token', 'short'],
    ['passwordpasswordpasswordpassword', 'few distinct characters'],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'one character'],
    ['01234567890123456789012345678901234567890123456789', 'ten distinct characters'],
  ])('production refuses a guessable ADMIN_TOKEN (%s: %s) with a message that says how to make one', (token) => {
    expect(() => loadConfig({ MODE: 'production', ADMIN_TOKEN: token, ...PROVIDER })).toThrow(/ADMIN_TOKEN is too easy to guess for production.*openssl rand -base64 32/);
    // The sandbox keeps accepting it: nothing there is worth guessing.
    expect(loadConfig({ ADMIN_TOKEN: token }).adminToken).toBe(token);
  });

  it('REQUIRE_CERTIFICATE_BOUND_TOKENS: on by default in production, off in sandbox, either way when set', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...PROVIDER };
    expect(loadConfig(production).requireCertificateBoundTokens).toBe(true);
    expect(loadConfig({ ...production, REQUIRE_CERTIFICATE_BOUND_TOKENS: 'false' }).requireCertificateBoundTokens).toBe(false);
    expect(loadConfig({}).requireCertificateBoundTokens).toBe(false);
    expect(loadConfig({ REQUIRE_CERTIFICATE_BOUND_TOKENS: 'true' }).requireCertificateBoundTokens).toBe(true);
  });

  it('METRICS_TOKEN: refused when guessable in production, or equal to ADMIN_TOKEN', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...PROVIDER };
    expect(loadConfig(production).metricsToken).toBeUndefined();
    expect(loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(10) + STRONG_ADMIN_TOKEN }).metricsToken).toBe('x'.repeat(10) + STRONG_ADMIN_TOKEN);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: 'metrics-token-123' })).toThrow(/METRICS_TOKEN is too easy to guess for production/);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: STRONG_ADMIN_TOKEN })).toThrow(/METRICS_TOKEN must differ from ADMIN_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN is too short \(5 characters\): the sandbox needs at least 16 characters/);
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

  it('PIX_NETWORK: the simulator in sandbox mode; production refuses to start without a provider, with a message that says what to set', () => {
    expect(loadConfig({}).pixNetwork).toBe('sandbox');
    expect(loadConfig({}).provider).toBeUndefined();
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, DATABASE_URL: PROVIDER.DATABASE_URL };
    expect(() => loadConfig(production)).toThrow(/PIX_NETWORK is required in production mode: set PIX_NETWORK=provider and PROVIDER_URL.*without a provider no PIX can leave or enter/);
    expect(() => loadConfig({ ...production, PIX_NETWORK: 'sandbox' })).toThrow(/PIX_NETWORK cannot be "sandbox" in production mode/);
    expect(() => loadConfig({ PIX_NETWORK: 'provider' })).toThrow(/PIX_NETWORK can be "provider" only in production mode/);
    expect(() => loadConfig({ ...production, PIX_NETWORK: 'dict' })).toThrow(/PIX_NETWORK must be "sandbox" or "provider"/);
    const config = loadConfig({ ...production, ...PROVIDER, PROVIDER_URL: 'https://provider.example.com/base/', PROVIDER_CERT_HEADER: 'true' });
    expect(config.pixNetwork).toBe('provider');
    expect(config.provider).toEqual({
      url: 'https://provider.example.com/base',
      clientId: PROVIDER.PROVIDER_CLIENT_ID,
      clientSecret: PROVIDER.PROVIDER_CLIENT_SECRET,
      certFile: PROVIDER.PROVIDER_CERT_FILE,
      keyFile: PROVIDER.PROVIDER_KEY_FILE,
      caFile: undefined,
      certHeader: true,
      webhookSecret: PROVIDER.PROVIDER_WEBHOOK_SECRET,
      reconcileAfterS: 60,
    });
    expect(Object.isFrozen(config.provider)).toBe(true);
    expect(loadConfig({ ...production, ...PROVIDER, PROVIDER_RECONCILE_AFTER_S: '5' }).provider?.reconcileAfterS).toBe(5);
  });

  it.each([
    [{ PROVIDER_URL: '' }, 'PROVIDER_URL', /is required with PIX_NETWORK=provider/],
    [{ PROVIDER_URL: 'http://provider.example.com' }, 'PROVIDER_URL', /https:\/\/ \(http:\/\/ is accepted only on a loopback address/],
    [{ PROVIDER_URL: 'not a url' }, 'PROVIDER_URL', /absolute https:\/\/ URL/],
    [{ PROVIDER_URL: 'https://user:pw@provider.example.com' }, 'PROVIDER_URL', /credentials/],
    [{ PROVIDER_CLIENT_ID: '' }, 'PROVIDER_CLIENT_ID', /is required/],
    [{ PROVIDER_CLIENT_SECRET: 'short' }, 'PROVIDER_CLIENT_SECRET', /8 to 64 characters/],
    [{ PROVIDER_CERT_FILE: '' }, 'PROVIDER_CERT_FILE', /is required/],
    [{ PROVIDER_KEY_FILE: '' }, 'PROVIDER_KEY_FILE', /is required/],
    [{ PROVIDER_WEBHOOK_SECRET: 'plain-secret' }, 'PROVIDER_WEBHOOK_SECRET', /whsec_/],
    [{ PROVIDER_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }, 'PROVIDER_WEBHOOK_SECRET', /at least 16 bytes/],
    [{ PROVIDER_CERT_HEADER: 'yes' }, 'PROVIDER_CERT_HEADER', /"true" or "false"/],
    [{ PROVIDER_RECONCILE_AFTER_S: '0' }, 'PROVIDER_RECONCILE_AFTER_S', /between 1 and 86400/],
    [{ PUBLIC_URL: '' }, 'PUBLIC_URL', /required with PIX_NETWORK=provider/],
  ])('with PIX_NETWORK=provider, refuses %j naming %s', (override, variable, message) => {
    const env = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...PROVIDER, ...override };
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as Error).message).toMatch(message);
  });

  it('PROVIDER_URL may be http:// on loopback only (tests)', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...PROVIDER };
    for (const url of ['http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000']) {
      expect(loadConfig({ ...production, PROVIDER_URL: url }).provider?.url).toBe(url);
    }
  });
});
