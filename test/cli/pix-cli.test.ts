import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../webhooks/receiver.ts';
import { CLI_ADMIN_TOKEN, cliEnv, killRunning, pix, startSandbox, until, workDir, type Sandbox } from './cli-kit.ts';

const EVENTS = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const;
/** Each test starts `pix` processes (node and tsx): seconds each on a quiet machine, far more under the whole suite. */
const CLI_TEST_MS = 240_000;
const NO_STACK = /\n\s+at [^\n]+:\d+:\d+/;

/** The `pix` binary as a process against the sandbox service (issue 29 item 2). */
describe('pix: the command line', () => {
  let sandbox: Sandbox;
  const work = workDir();
  let account: Awaited<ReturnType<Sandbox['account']>>;
  let flags: string[];

  beforeAll(async () => {
    sandbox = await startSandbox();
    account = await sandbox.account(work.dir);
    flags = ['--base-url', sandbox.url, '--client-id', account.clientId, '--client-secret', account.clientSecret, '--cert', account.certFile];
  }, CLI_TEST_MS);
  afterAll(async () => {
    await killRunning();
    await sandbox?.stop();
    work.remove();
  }, CLI_TEST_MS);

  it('prints help with exit 0, for the whole command and each command', async () => {
    const top = await pix(['--help'], cliEnv(work.configHome));
    expect(top.code).toBe(0);
    for (const name of ['login', 'trigger']) expect(top.stdout).toContain(`  ${name} `);
    const trigger = await pix(['trigger', '--help'], cliEnv(work.configHome));
    expect(trigger.code).toBe(0);
    expect(trigger.stdout).toMatch(/^Usage: pix trigger EVENT/);
    for (const option of ['--base-url', '--client-id', '--client-secret', '--cert', '--key', '--admin-token', '--profile', '--json']) expect(trigger.stdout).toContain(option);
    for (const variable of ['PIX_BASE_URL', 'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_CERT_FILE', 'PIX_KEY_FILE', 'PIX_ADMIN_TOKEN', 'PIX_PROFILE']) expect(trigger.stdout).toContain(variable);
  }, CLI_TEST_MS);

  it('runs as `npx pix` from the project root', async () => {
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'pix', '--help'], { cwd: path.resolve('.'), env: cliEnv(work.configHome) });
    expect(stdout).toMatch(/^Usage: pix <command>/);
  }, CLI_TEST_MS);

  it('exits 2 on a usage error, naming it, with no stack trace', async () => {
    const env = cliEnv(work.configHome);
    for (const args of [['nonsense'], ['trigger'], ['trigger', 'cash_sideways', ...flags], ['trigger', 'cash_in', '--frobnicate', ...flags], ['trigger', 'cash_in', '--override', 'colour=blue', ...flags], ['trigger', 'cash_in']]) {
      const run = await pix(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^pix: /);
      expect(run.stderr).not.toMatch(NO_STACK);
    }
    const missing = await pix(['trigger', 'cash_in', '--json'], env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'USAGE', message: expect.stringContaining('--client-id') } });
  }, CLI_TEST_MS);

  it('exits 1 on an API error, printing its code and message (and as JSON with --json)', async () => {
    const env = cliEnv(work.configHome);
    const wrong = ['--base-url', sandbox.url, '--client-id', account.clientId, '--client-secret', 'not-the-secret', '--cert', account.certFile];
    const run = await pix(['trigger', 'cash_in', ...wrong], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^pix: 401 \w+: .+/);
    expect(run.stderr).not.toMatch(NO_STACK);
    const json = await pix(['login', ...wrong, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { status: 401, code: expect.any(String), message: expect.any(String) } });
    // A refusal of the request itself: an amount the account cannot pay.
    const broke = await pix(['trigger', 'refund_out', '--override', 'keyType=NOPE', ...flags, '--json'], env);
    expect(broke.code).toBe(1);
    expect(JSON.parse(broke.stdout).error).toMatchObject({ status: 400 });
  }, CLI_TEST_MS);

  it('takes an option value that starts with a dash given apart (a client secret may: base64url), and still refuses a missing one', async () => {
    const env = cliEnv(work.configHome);
    const secret = '-Dash-first_secret-0123456789';
    const creds = await sandbox.admin('POST', `/admin/accounts/${account.id}/credentials`, { clientSecret: secret });
    const dashed = ['--base-url', sandbox.url, '--client-id', creds.clientId, '--client-secret', secret, '--cert', account.certFile];
    const run = await pix(['trigger', 'cash_in', '--json', ...dashed], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ event: 'cash_in', chargeId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // The wrong secret that starts with a dash is the API's 401, not a usage error.
    expect((await pix(['trigger', 'cash_in', ...dashed.slice(0, 5), '-not-the-secret', ...dashed.slice(6)], env)).code).toBe(1);
    // An option where the value should be is a forgotten value: a usage error.
    const missing = await pix(['trigger', 'cash_in', '--client-secret', '--json', ...dashed.slice(0, 4), ...dashed.slice(6)], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^pix: .*--client-secret/);
  }, CLI_TEST_MS);

  it('login saves a profile only its owner can read, which later commands use; --profile picks another', async () => {
    const own = workDir();
    try {
      const env = cliEnv(own.configHome);
      const login = await pix(['login', ...flags, '--json'], env);
      expect(login.code, login.stderr).toBe(0);
      const file = path.join(own.configHome, 'pix', 'config.json');
      expect(JSON.parse(login.stdout)).toMatchObject({ profile: 'default', configFile: file });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toMatchObject({ baseUrl: sandbox.url, clientId: account.clientId, certFile: account.certFile });

      const triggered = await pix(['trigger', 'cash_in', '--json'], env);
      expect(triggered.code, triggered.stderr).toBe(0);
      expect(JSON.parse(triggered.stdout)).toMatchObject({ event: 'cash_in', chargeId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

      expect((await pix(['trigger', 'cash_in', '--profile', 'staging'], env)).code).toBe(2);
      const staging = await pix(['login', ...flags, '--profile', 'staging'], env);
      expect(staging.code).toBe(0);
      expect(staging.stdout).toContain('profile "staging"');
      expect((await pix(['trigger', 'cash_in', '--json'], { ...env, PIX_PROFILE: 'staging' })).code).toBe(0);
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles).sort()).toEqual(['default', 'staging']);
    } finally {
      own.remove();
    }
  }, CLI_TEST_MS);

  it('trigger makes every event type happen: each reaches a webhook receiver, signed, about the objects it printed', async () => {
    const rx = await startReceiver();
    try {
      const { secret } = await sandbox.admin('GET', `/admin/accounts/${account.id}/webhook-secret`);
      for (const event of EVENTS) await sandbox.admin('POST', `/admin/accounts/${account.id}/webhooks`, { eventType: event, url: rx.url(`/hooks/${event}`) });
      const env = cliEnv(work.configHome);
      for (const event of EVENTS) {
        const run = await pix(['trigger', event, '--json', '--override', 'value=12.34', ...flags], env);
        expect(run.code, `${event}: ${run.stderr}`).toBe(0);
        const created = JSON.parse(run.stdout) as Record<string, string | number>;
        expect(created.event).toBe(event);
        const ids = Object.entries(created).filter(([k]) => k !== 'event').map(([, v]) => String(v));
        expect(ids.length).toBeGreaterThan(0);
        const delivery = await until(() => rx.to(`/hooks/${event}`).find((r) => ids.some((id) => r.body.includes(id))), 60_000, `${event} at the receiver`);
        const verified = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
        expect(JSON.stringify(verified)).toContain('12.34');
      }
    } finally {
      await rx.close();
    }
  }, 240_000);

  it('events list|get|resend and deliveries list|replay, with --json parsed', async () => {
    const own = await sandbox.account(work.dir);
    const ownFlags = ['--base-url', sandbox.url, '--client-id', own.clientId, '--client-secret', own.clientSecret, '--cert', own.certFile];
    const rx = await startReceiver();
    rx.on('/refused', () => ({ status: 500, body: 'no' }));
    try {
      await sandbox.admin('POST', `/admin/accounts/${own.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/hooks') });
      await sandbox.admin('POST', `/admin/accounts/${own.id}/webhooks`, { eventType: 'cash_in', url: rx.url('/refused') });
      const env = cliEnv(work.configHome);
      const since = new Date(Date.now() - 60_000).toISOString();
      const triggered = JSON.parse((await pix(['trigger', 'cash_in', '--json', ...ownFlags], env)).stdout);
      await until(() => rx.to('/hooks').length >= 1 && rx.to('/refused').length >= 1, 60_000, 'cash_in delivered');

      const listed = await pix(['events', 'list', '--type', 'cash_in', '--all', '--json', ...ownFlags], env);
      expect(listed.code, listed.stderr).toBe(0);
      const events = JSON.parse(listed.stdout).data as Array<{ id: string; type: string; payload: { transactionId?: string } }>;
      const event = events.find((e) => e.payload.transactionId === triggered.chargeId);
      expect(event).toMatchObject({ type: 'cash_in' });
      const human = await pix(['events', 'list', ...ownFlags], env);
      expect(human.stdout).toContain(event!.id);

      const got = await pix(['events', 'get', event!.id, '--json', ...ownFlags], env);
      expect(JSON.parse(got.stdout)).toMatchObject({ id: event!.id, type: 'cash_in', payload: { transactionId: triggered.chargeId } });
      expect((await pix(['events', 'get', 'msg_nothing', '--json', ...ownFlags], env)).code).toBe(1);

      const before = rx.to('/hooks').length;
      const resent = await pix(['events', 'resend', event!.id, '--url', rx.url('/resent'), '--json', ...ownFlags], env);
      expect(resent.code, resent.stderr).toBe(0);
      expect(JSON.parse(resent.stdout)).toMatchObject({ event: event!.id, statusCode: 200 });
      expect(rx.to('/resent')).toHaveLength(1);

      const adminFlags = ['--base-url', sandbox.url, '--admin-token', CLI_ADMIN_TOKEN];
      const failed = await pix(['deliveries', 'list', '--account', String(own.id), '--failed', '--json', ...adminFlags], env);
      expect(failed.code, failed.stderr).toBe(0);
      const attempts = JSON.parse(failed.stdout).data as Array<{ status: string; url: string }>;
      expect(attempts.length).toBeGreaterThan(0);
      for (const a of attempts) expect(a).toMatchObject({ status: 'failed', url: rx.url('/refused') });
      expect((await pix(['deliveries', 'list', '--failed', ...adminFlags], env)).code).toBe(2);

      const replay = await pix(['deliveries', 'replay', '--since', since, '--status', 'all', '--type', 'cash_in', '--json', ...ownFlags], env);
      expect(replay.code, replay.stderr).toBe(0);
      expect(JSON.parse(replay.stdout).queued).toBeGreaterThanOrEqual(1);
      await until(() => rx.to('/hooks').length > before, 60_000, 'the replayed delivery');
      expect((await pix(['deliveries', 'replay', '--since', since, '--status', 'some', ...ownFlags], env)).code).toBe(2);
    } finally {
      await rx.close();
    }
  }, 240_000);
});
