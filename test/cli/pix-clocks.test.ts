import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ADMIN_TOKEN, cliEnv, pix, startSandbox, workDir, type Sandbox } from './cli-kit.ts';

/** Each test starts `pix` processes (node and tsx): seconds each on a quiet machine, far more under load. */
const CLI_TEST_MS = 240_000;
const NO_STACK = /\n\s+at [^\n]+:\d+:\d+/;
const FROZEN = '2027-01-04T15:00:00.000Z';

/** `pix clocks ...` as a process against the sandbox service (issue 29 item 3). */
describe('pix clocks: per-account test clocks from the command line', () => {
  let sandbox: Sandbox;
  const work = workDir();
  let account: Awaited<ReturnType<Sandbox['account']>>;
  let other: Awaited<ReturnType<Sandbox['account']>>;
  let flags: string[];
  let otherFlags: string[];
  const env = () => cliEnv(work.configHome);

  beforeAll(async () => {
    sandbox = await startSandbox();
    account = await sandbox.account(work.dir);
    other = await sandbox.account(work.dir);
    flags = ['--base-url', sandbox.url, '--client-id', account.clientId, '--client-secret', account.clientSecret, '--cert', account.certFile];
    otherFlags = ['--base-url', sandbox.url, '--client-id', other.clientId, '--client-secret', other.clientSecret, '--cert', other.certFile];
  }, CLI_TEST_MS);
  afterAll(async () => {
    await sandbox?.stop();
    work.remove();
  }, CLI_TEST_MS);

  it('prints help (exit 0) and refuses bad command lines with exit 2, naming the problem, no stack trace', async () => {
    const top = await pix(['--help'], env());
    expect(top.code).toBe(0);
    for (const name of ['clocks create', 'clocks advance', 'clocks get', 'clocks list', 'clocks delete']) expect(top.stdout).toContain(`  ${name} `);
    const help = await pix(['clocks', 'advance', '--help'], env());
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pix clocks advance ID --to TIME/);
    expect(help.stdout).toContain('--json');
    for (const [args, said] of [
      [['clocks'], /clocks takes one of: create, advance, get, list, delete/],
      [['clocks', 'create', '--account', String(account.id), ...flags], /--frozen-time/],
      [['clocks', 'create', '--frozen-time', 'tomorrow', '--account', String(account.id), ...flags], /--frozen-time must be an ISO 8601/],
      [['clocks', 'create', '--frozen-time', FROZEN, ...flags], /--account/],
      [['clocks', 'create', '--frozen-time', FROZEN, '--account', 'me', ...flags], /--account must be an account id/],
      [['clocks', 'advance', '--to', FROZEN, ...flags], /test clock id/],
      [['clocks', 'advance', 'some-id', ...flags], /--to/],
      [['clocks', 'get', ...flags], /test clock id/],
      [['clocks', 'list', '--frobnicate', ...flags], /frobnicate/],
    ] as const) {
      const run = await pix([...args], env());
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(said);
      expect(run.stderr).not.toMatch(NO_STACK);
    }
  }, CLI_TEST_MS);

  it('create, advance (waiting until ready), get, list and delete, with --json parsed; API refusals exit 1', async () => {
    const made = await pix(['clocks', 'create', '--frozen-time', FROZEN, '--account', String(account.id), '--name', 'cli trial', '--json', ...flags], env());
    expect(made.code, made.stderr).toBe(0);
    const clock = JSON.parse(made.stdout);
    expect(clock).toEqual({ id: expect.any(String), name: 'cli trial', frozenTime: FROZEN, status: 'ready', accountIds: [account.id] });

    // On two clocks: 409, printed with its code; as JSON with --json.
    const twice = await pix(['clocks', 'create', '--frozen-time', FROZEN, '--account', String(account.id), '--json', '--admin-token', CLI_ADMIN_TOKEN, '--base-url', sandbox.url], env());
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.stdout)).toMatchObject({ error: { status: 409 } });
    expect(twice.stderr).toMatch(/^pix: 409 /);

    const to = '2027-04-05T15:00:00.000Z';
    const advanced = await pix(['clocks', 'advance', clock.id, '--to', to, '--json', ...flags], env());
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(JSON.parse(advanced.stdout)).toMatchObject({ id: clock.id, status: 'ready', frozenTime: to });
    // Backwards: 400 naming `to`.
    const back = await pix(['clocks', 'advance', clock.id, '--to', FROZEN, ...flags], env());
    expect(back.code).toBe(1);
    expect(back.stderr).toMatch(/^pix: 400 .*\bto\b/);

    const got = await pix(['clocks', 'get', clock.id, ...flags], env());
    expect(got.code).toBe(0);
    expect(got.stdout).toContain(`${clock.id}  ready      ${to}  accounts ${account.id}  cli trial`);
    const listed = JSON.parse((await pix(['clocks', 'list', '--json', ...flags], env())).stdout);
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual([clock.id]);
    // Another account sees none of it: its list is empty, the clock 404.
    expect(JSON.parse((await pix(['clocks', 'list', '--json', ...otherFlags], env())).stdout)).toEqual({ data: [] });
    const foreign = await pix(['clocks', 'get', clock.id, ...otherFlags], env());
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^pix: 404 /);
    // The operator sees every clock.
    const all = JSON.parse((await pix(['clocks', 'list', '--all', '--json', '--admin-token', CLI_ADMIN_TOKEN, '--base-url', sandbox.url], env())).stdout);
    expect(all.data.map((c: { id: string }) => c.id)).toContain(clock.id);

    const deleted = await pix(['clocks', 'delete', clock.id, '--json', ...flags], env());
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ id: clock.id, deleted: true });
    expect((await pix(['clocks', 'get', clock.id, ...flags], env())).code).toBe(1);
  }, CLI_TEST_MS);
});
