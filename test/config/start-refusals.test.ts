import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { providerEnv, TEST_PROVIDER_CERT_FILE, TEST_PROVIDER_KEY_FILE } from '../provider-env.ts';

// Issue 25 item 3: refuse unsafe starts, and say everything wrong in one message.
const STRONG_ADMIN_TOKEN = 'q7Xv2mKp9LsR4tWz8YbN3cFh6JdG1eUa5QwE0rTyViO';
const POSTGRES = 'postgres://pix@db.example:5432/pix';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const variables = (error: ConfigError) => error.problems.map((p) => p.variable);

describe('production without DATABASE_URL', () => {
  const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, ...providerEnv() };

  it('is refused, saying why and how to allow it', () => {
    const error = refusal(production);
    expect(variables(error)).toEqual(['DATABASE_URL']);
    expect(error.message).toBe(
      'Invalid configuration: DATABASE_URL is required in production mode: without it the ledger would live in the embedded database, a local folder one process can open; set DATABASE_URL=postgres://... (or ALLOW_EMBEDDED_DATABASE=true to run production on the embedded database anyway)',
    );
    expect(refusal({ ...production, ALLOW_EMBEDDED_DATABASE: 'false' }).variable).toBe('DATABASE_URL');
  });

  it('starts on the embedded database with ALLOW_EMBEDDED_DATABASE=true, and on PostgreSQL without it', () => {
    expect(loadConfig({ ...production, ALLOW_EMBEDDED_DATABASE: 'true' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ ...production, DATABASE_URL: POSTGRES }).databaseUrl).toBe(POSTGRES);
    // The sandbox's default stays the embedded database.
    expect(loadConfig({}).databaseUrl).toBeUndefined();
  });
});

describe('every problem in one message', () => {
  it('production with nothing set lists DATABASE_URL, ADMIN_TOKEN and PIX_NETWORK at once', () => {
    const error = refusal({ MODE: 'production' });
    expect(variables(error)).toEqual(['DATABASE_URL', 'ADMIN_TOKEN', 'PIX_NETWORK']);
    expect(error.message).toMatch(/^Invalid configuration: 3 problems \(nothing was started; fix them all\):\n {2}- DATABASE_URL is required in production mode.*\n {2}- ADMIN_TOKEN is required in production mode.*\n {2}- PIX_NETWORK is required in production mode/);
  });

  it('PIX_NETWORK=provider alone lists every missing provider variable and PUBLIC_URL, not one per start', () => {
    const error = refusal({ MODE: 'production', DATABASE_URL: POSTGRES, PIX_NETWORK: 'provider' });
    expect(variables(error).sort()).toEqual(
      ['ADMIN_TOKEN', 'PROVIDER_URL', 'PROVIDER_CLIENT_ID', 'PROVIDER_CLIENT_SECRET', 'PROVIDER_WEBHOOK_SECRET', 'PROVIDER_CERT_FILE', 'PROVIDER_KEY_FILE', 'PUBLIC_URL'].sort(),
    );
    for (const variable of variables(error)) expect(error.message).toContain(`  - ${variable} `);
  });

  it('invalid values of unrelated variables are all reported together, each naming its variable', () => {
    const error = refusal({ PORT: 'x', LOG_LEVEL: 'loud', INSTITUTION_ISPB: '12', TRUSTED_PROXIES: 'proxy.local', DB_POOL_SIZE: '0', DB_LOCK_TIMEOUT_MS: 'soon', WORKERS: '0' });
    expect(variables(error)).toEqual(['PORT', 'INSTITUTION_ISPB', 'LOG_LEVEL', 'DB_LOCK_TIMEOUT_MS', 'DB_POOL_SIZE', 'TRUSTED_PROXIES', 'WORKERS']);
  });
});

describe('file variables name themselves when they cannot be used', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'pix-config-'));
  const notPem = path.join(folder, 'not-a-certificate.pem');
  writeFileSync(notPem, 'hello\n');

  it('TLS_CERT_FILE / TLS_KEY_FILE: missing, a folder, or not a certificate and its key', () => {
    const missing = refusal({ TLS_CERT_FILE: '/nonexistent/server-cert.pem', TLS_KEY_FILE: folder });
    expect(missing.problems).toEqual([
      { variable: 'TLS_CERT_FILE', message: 'cannot be read (no such file): /nonexistent/server-cert.pem' },
      { variable: 'TLS_KEY_FILE', message: `cannot be read (it is a folder): ${folder}` },
    ]);
    expect(missing.message).not.toMatch(/ENOENT|\n\s+at /);
    const mismatched = refusal({ TLS_CERT_FILE: notPem, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE });
    expect(mismatched.variable).toBe('TLS_CERT_FILE');
    expect(mismatched.message).toMatch(/^Invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE must hold a PEM certificate and its matching private key \(/);
    expect(loadConfig({ TLS_CERT_FILE: TEST_PROVIDER_CERT_FILE, TLS_KEY_FILE: TEST_PROVIDER_KEY_FILE }).tls?.certFile).toBe(TEST_PROVIDER_CERT_FILE);
  });

  it('PROVIDER_CERT_FILE, PROVIDER_KEY_FILE and PROVIDER_CA_FILE, each by name', () => {
    const production = { MODE: 'production', ADMIN_TOKEN: STRONG_ADMIN_TOKEN, DATABASE_URL: POSTGRES };
    const error = refusal({
      ...production,
      ...providerEnv({ PROVIDER_CERT_FILE: '/nonexistent/provider-cert.pem', PROVIDER_KEY_FILE: '/nonexistent/provider-key.pem', PROVIDER_CA_FILE: '/nonexistent/ca.pem' }),
    });
    expect(error.problems).toEqual([
      { variable: 'PROVIDER_CERT_FILE', message: 'cannot be read (no such file): /nonexistent/provider-cert.pem' },
      { variable: 'PROVIDER_KEY_FILE', message: 'cannot be read (no such file): /nonexistent/provider-key.pem' },
      { variable: 'PROVIDER_CA_FILE', message: 'cannot be read (no such file): /nonexistent/ca.pem' },
    ]);
    expect(refusal({ ...production, ...providerEnv({ PROVIDER_CERT_FILE: notPem }) }).message).toMatch(/PROVIDER_CERT_FILE and PROVIDER_KEY_FILE must hold a PEM certificate/);
  });
});

describe('one ADMIN_TOKEN rule, stated whole', () => {
  const production = { MODE: 'production', DATABASE_URL: POSTGRES, ...providerEnv() };
  const RULE = 'production needs at least 32 characters, 12 distinct and 128 bits; generate one with: openssl rand -base64 32';

  it('in production a short token and a 16-character one are told the same rule (never "16" then "32")', () => {
    const short = refusal({ ...production, ADMIN_TOKEN: 'short' });
    const sixteen = refusal({ ...production, ADMIN_TOKEN: 'abcdefghijklmnop' });
    for (const error of [short, sixteen]) {
      expect(error.problems).toHaveLength(1);
      expect(error.message).toContain(`ADMIN_TOKEN is too easy to guess for production (`);
      expect(error.message).toContain(`): ${RULE}`);
      expect(error.message).not.toContain('at least 16');
    }
    expect(refusal({ ...production, ADMIN_TOKEN: '' }).message).toBe(`Invalid configuration: ADMIN_TOKEN is required in production mode (${RULE})`);
  });

  it('the sandbox keeps its own bar (16 characters), stated with production\'s', () => {
    expect(refusal({ ADMIN_TOKEN: 'short' }).message).toBe(
      'Invalid configuration: ADMIN_TOKEN is too short (5 characters): the sandbox needs at least 16 characters (production: 32 characters, 12 distinct and 128 bits); generate one with: openssl rand -base64 32',
    );
    expect(loadConfig({ ADMIN_TOKEN: 'abcdefghijklmnop' }).adminToken).toBe('abcdefghijklmnop');
  });
});
