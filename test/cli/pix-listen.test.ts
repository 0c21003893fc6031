import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixClient } from '../../sdk/src/index.ts';
import { readFileSync } from 'node:fs';
import { startReceiver } from '../webhooks/receiver.ts';
import { cliEnv, pix, pixProcess, startSandbox, until, workDir, type Sandbox } from './cli-kit.ts';

/** Each test starts `pix` processes (node and tsx): seconds each on a quiet machine, far more under the whole suite. */
const CLI_TEST_MS = 240_000;

/** `pix listen` as a process: forwards the events stream to a local receiver, signed, across a restart of the service. */
describe('pix listen', () => {
  let sandbox: Sandbox;
  const work = workDir();
  let account: Awaited<ReturnType<Sandbox['account']>>;
  let flags: string[];
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    account = await sandbox.account(work.dir);
    flags = ['--base-url', sandbox.url, '--client-id', account.clientId, '--client-secret', account.clientSecret, '--cert', account.certFile];
    rx = await startReceiver();
  }, CLI_TEST_MS);
  afterAll(async () => {
    await rx?.close();
    await sandbox?.stop();
    work.remove();
  }, CLI_TEST_MS);

  const jsonLines = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('forwards every event signed with the secret it printed, one line each, losing and repeating none across a service restart; Ctrl-C exits 0', async () => {
    const env = cliEnv(work.configHome);
    const listen = pixProcess(['listen', '--forward-to', rx.url('/hook'), '--json', ...flags], env);
    try {
      await until(() => listen.lines.length >= 2, 60_000, `listen ready (stderr: ${listen.errors.join('')})`);
      const [first, ready] = jsonLines(listen.lines);
      expect(first!.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
      expect(ready).toEqual({ ready: true });
      const receiver = new Webhook(first!.secret as string);

      const trigger = async (event: string) => {
        const run = await pix(['trigger', event, '--json', ...flags], env);
        expect(run.code, run.stderr).toBe(0);
      };
      await trigger('cash_in');
      await trigger('med_created');
      const forwarded = () => jsonLines(listen.lines).filter((l) => typeof l.type === 'string');
      await until(() => forwarded().some((l) => l.type === 'med_created'), 60_000, 'med_created forwarded');

      // The service stops and starts again; events made while listen reconnects still reach it once.
      await sandbox.restart();
      const pixClient = createPixClient({ baseUrl: sandbox.url, clientId: account.clientId, clientSecret: account.clientSecret, certificate: { cert: readFileSync(account.certFile, 'utf8') } });
      await pixClient.sandbox.deposits.create({ value: 3.21 });
      await trigger('refund_in');
      await until(() => jsonLines(listen.lines).some((l) => l.reconnected === true), 60_000, 'listen reconnected');
      await until(() => forwarded().some((l) => l.type === 'refund_in'), 60_000, 'refund_in forwarded after the restart');

      // Exactly the account's events, in order, each once: what the events API lists.
      const all = await pixClient.events.list({ size: 100 }).toArray();
      await until(() => forwarded().length >= all.length, 30_000, 'every event forwarded');
      expect(forwarded().map((l) => l.id)).toEqual(all.map((e) => e.id));
      for (const line of forwarded()) expect(line).toMatchObject({ status: 200, ms: expect.any(Number) });

      // The receiver got each, signed with the printed secret, its body exactly the event's payload.
      const received = rx.to('/hook');
      expect(received.map((r) => r.headers['webhook-id'])).toEqual(all.map((e) => e.id));
      for (const [i, request] of received.entries()) {
        expect(receiver.verify(request.body, request.headers as Record<string, string>)).toEqual(all[i]!.payload);
      }
      expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(received[0]!.body, received[0]!.headers as Record<string, string>)).toThrow();

      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(0);
    } finally {
      listen.child.kill('SIGKILL');
    }

    // Started again, it prints the same secret (kept in the config folder).
    const again = pixProcess(['listen', '--forward-to', rx.url('/hook'), '--json', '--events', 'cash_out', ...flags], env);
    try {
      await until(() => again.lines.length >= 2, 60_000, 'listen ready again');
      expect(jsonLines(again.lines)[0]).toMatchObject({ secret: jsonLines(listen.lines)[0]!.secret, events: ['cash_out'] });
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    } finally {
      again.child.kill('SIGKILL');
    }
  }, 300_000);

  it('refuses a missing or bad --forward-to and an unknown event type with exit 2', async () => {
    const env = cliEnv(work.configHome);
    for (const args of [['listen'], ['listen', '--forward-to', 'ftp://x'], ['listen', '--forward-to', rx.url('/x'), '--events', 'cash_in,payday']]) {
      const run = await pix([...args, ...flags], env);
      expect(run.code, args.join(' ')).toBe(2);
    }
  }, CLI_TEST_MS);
});
