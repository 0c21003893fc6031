import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixClient } from '../../sdk/src/index.ts';
import { readFileSync } from 'node:fs';
import { startReceiver } from '../webhooks/receiver.ts';
import { cliEnv, killRunning, pix, pixProcess, startSandbox, until, workDir, type Sandbox } from './cli-kit.ts';

const EVENTS = ['cash_in', 'cash_out', 'refund_in', 'refund_out', 'med_created', 'med_accepted', 'med_rejected'] as const;
/** Each test starts `pix` processes (node and tsx): seconds each on a quiet machine, far more under the whole suite. */
const CLI_TEST_MS = 240_000;
/**
 * Bounds of the waits below, for a machine shared with other work: each wait ends as soon as its
 * condition holds, the bound only says when to give up.
 */
const READY_MS = 120_000;
const ARRIVAL_MS = 120_000;
const EXIT_MS = 30_000;

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
    // A listen a failed test left running is killed first: nothing outlives the file.
    await killRunning();
    await rx?.close();
    await sandbox?.stop();
    work.remove();
  }, CLI_TEST_MS);

  const jsonLines = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const accountFlags = (a: Awaited<ReturnType<Sandbox['account']>>) => ['--base-url', sandbox.url, '--client-id', a.clientId, '--client-secret', a.clientSecret, '--cert', a.certFile];

  /** Starts listen and waits for it to be ready (its secret printed first); answers the process and the secret. */
  async function listening(args: string[], env: NodeJS.ProcessEnv) {
    const listen = pixProcess(['listen', ...args, '--json'], env);
    await until(
      () => jsonLines(listen.lines).some((l) => l.ready === true) || listen.child.exitCode !== null,
      READY_MS,
      `listen ready (stdout: ${listen.lines.join('\n')}; stderr: ${listen.errors.join('')})`,
    );
    expect(listen.child.exitCode, listen.errors.join('')).toBeNull();
    // The secret first; then ready (after a refused first connection, a "disconnected" line may come before it).
    const [first] = jsonLines(listen.lines);
    expect(first!.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(jsonLines(listen.lines).slice(1).find((l) => !('disconnected' in l))).toEqual({ ready: true });
    return { listen, secret: first!.secret as string };
  }

  it('forwards every event signed with the secret it printed, one line each, losing and repeating none across a service restart; Ctrl-C exits 0', async () => {
    const env = cliEnv(work.configHome);
    const { listen, secret } = await listening(['--forward-to', rx.url('/hook'), ...flags], env);
    const receiver = new Webhook(secret);

    const trigger = async (event: string) => {
      const run = await pix(['trigger', event, '--json', ...flags], env);
      expect(run.code, run.stderr).toBe(0);
    };
    await trigger('cash_in');
    await trigger('med_created');
    const forwarded = () => jsonLines(listen.lines).filter((l) => typeof l.type === 'string');
    await until(() => forwarded().some((l) => l.type === 'med_created'), ARRIVAL_MS, `med_created forwarded (${listen.lines.join('\n')})`);

    // The service stops and starts again; events made while listen reconnects still reach it once.
    await sandbox.restart();
    const pixClient = createPixClient({ baseUrl: sandbox.url, clientId: account.clientId, clientSecret: account.clientSecret, certificate: { cert: readFileSync(account.certFile, 'utf8') } });
    await pixClient.sandbox.deposits.create({ value: 3.21 });
    await trigger('refund_in');
    await until(() => jsonLines(listen.lines).some((l) => l.reconnected === true), ARRIVAL_MS, `listen reconnected (${listen.lines.join('\n')})`);
    await until(() => forwarded().some((l) => l.type === 'refund_in'), ARRIVAL_MS, `refund_in forwarded after the restart (${listen.lines.join('\n')})`);

    // Exactly the account's events, in order, each once: what the events API lists.
    const all = await pixClient.events.list({ size: 100 }).toArray();
    expect(all.map((e) => e.type)).toEqual(expect.arrayContaining(['cash_in', 'med_created', 'refund_in']));
    await until(() => forwarded().length >= all.length, ARRIVAL_MS, 'every event forwarded');
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
    expect(await listen.exitWithin(EXIT_MS, 'listen after Ctrl-C')).toBe(0);

    // Started again, it prints the same secret (kept in the config folder).
    const again = await listening(['--forward-to', rx.url('/hook'), '--events', 'cash_out', ...flags], env);
    expect(again.secret).toBe(secret);
    expect(jsonLines(again.listen.lines)[0]).toMatchObject({ events: ['cash_out'] });
    again.listen.child.kill('SIGINT');
    expect(await again.listen.exitWithin(EXIT_MS, 'listen after Ctrl-C')).toBe(0);
  }, 400_000);

  it('trigger for every event type: each event reaches the receiver through listen, verified with the printed secret, about the objects trigger printed', async () => {
    const own = await sandbox.account(work.dir);
    const ownFlags = accountFlags(own);
    const env = cliEnv(work.configHome);
    const { listen, secret } = await listening(['--forward-to', rx.url('/every'), ...ownFlags], env);
    const receiver = new Webhook(secret);
    for (const event of EVENTS) {
      const run = await pix(['trigger', event, '--json', '--override', 'value=12.34', ...ownFlags], env);
      expect(run.code, `${event}: ${run.stderr}`).toBe(0);
      const created = JSON.parse(run.stdout) as Record<string, string | number>;
      expect(created.event).toBe(event);
      const ids = Object.entries(created).filter(([k]) => k !== 'event').map(([, v]) => String(v));
      expect(ids.length).toBeGreaterThan(0);
      const delivery = await until(
        () => rx.to('/every').find((r) => {
          const payload = receiver.verify(r.body, r.headers as Record<string, string>);
          return forwardedType(listen.lines, r.headers['webhook-id'] as string) === event && ids.some((id) => JSON.stringify(payload).includes(id));
        }),
        ARRIVAL_MS,
        `${event} forwarded by listen (${listen.lines.join('\n')})`,
      );
      expect(JSON.stringify(receiver.verify(delivery.body, delivery.headers as Record<string, string>))).toContain('12.34');
    }
    // No event twice.
    const ids = rx.to('/every').map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    listen.child.kill('SIGINT');
    expect(await listen.exitWithin(EXIT_MS, 'listen after Ctrl-C')).toBe(0);
  }, 400_000);

  it('refuses a missing or bad --forward-to and an unknown event type with exit 2', async () => {
    const env = cliEnv(work.configHome);
    for (const args of [['listen'], ['listen', '--forward-to', 'ftp://x'], ['listen', '--forward-to', rx.url('/x'), '--events', 'cash_in,payday']]) {
      const run = await pix([...args, ...flags], env);
      expect(run.code, args.join(' ')).toBe(2);
    }
  }, CLI_TEST_MS);
});

/** The type listen printed for the event it forwarded with this id (its JSON lines). */
function forwardedType(lines: string[], id: string): unknown {
  for (const line of lines) {
    const parsed = JSON.parse(line) as { id?: string; type?: unknown };
    if (parsed.id === id) return parsed.type;
  }
  return undefined;
}
