import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../webhooks/receiver.ts';
import { cliEnv, exitWithin, killRunning, startSandbox, trackProcess, until, workDir, type Sandbox } from './cli-kit.ts';

const PIX = path.resolve('sdk/bin/pix.js');

/** The ```sh blocks of the README's "Develop against the sandbox" section, in order. */
function sectionBlocks(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('## Develop against the sandbox\n');
  expect(start).toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/**
 * The README's "Develop against the sandbox" commands, run as written by bash (issue 29): in a
 * project folder with the demo certificate at data/demo/client-cert.pem, `npx pix` being this
 * repository's pix. The one change: the receiver's port replaces 4000 (no fixed ports in tests).
 */
describe('README: Develop against the sandbox, run verbatim', () => {
  let sandbox: Sandbox;
  const work = workDir();
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const account = await sandbox.account(work.dir);
    mkdirSync(path.join(work.dir, 'project/data/demo'), { recursive: true });
    copyFileSync(account.certFile, path.join(work.dir, 'project/data/demo/client-cert.pem'));
    // `npx pix` as it resolves in the repository: this repository's bin.
    mkdirSync(path.join(work.dir, 'bin'));
    writeFileSync(path.join(work.dir, 'bin/npx'), `#!/bin/sh\n[ "$1" = pix ] || exit 127\nshift\nexec "${process.execPath}" "${PIX}" "$@"\n`);
    chmodSync(path.join(work.dir, 'bin/npx'), 0o755);
    env = cliEnv(work.configHome, {
      PATH: `${path.join(work.dir, 'bin')}${path.delimiter}${process.env.PATH}`,
      PIX_BASE_URL: sandbox.url,
      PIX_CLIENT_ID: account.clientId,
      PIX_CLIENT_SECRET: account.clientSecret,
      // The clocks block names the account as the README says: ACCOUNT set to its id.
      ACCOUNT: String(account.id),
    });
  });
  afterAll(async () => {
    // A listener a failed test left running is killed with its process group: nothing outlives the file.
    await killRunning();
    await sandbox?.stop();
    work.remove();
  }, 120_000);

  it('login, then listen forwards to the receiver what trigger made happen, and the rest of the commands succeed', async () => {
    const [login, listen, others, ...later] = sectionBlocks();
    expect(listen).toMatch(/^npx pix listen --forward-to http:\/\/localhost:4000\/webhooks\n$/);
    const cwd = path.join(work.dir, 'project');
    const bash = (script: string) => promisify(execFile)('bash', ['-e', '-c', script], { cwd, env, timeout: 240_000, killSignal: 'SIGKILL' });

    const saved = await bash(login!);
    expect(saved.stdout).toContain('profile "default" saved');
    // From now on the profile is what connects: the credentials leave the environment.
    const { PIX_CLIENT_ID: _id, PIX_CLIENT_SECRET: _secret, PIX_BASE_URL: _url, ...withoutCredentials } = env;
    env = withoutCredentials;

    const rx = await startReceiver();
    const listening = trackProcess(spawn('bash', ['-c', listen!.replace('localhost:4000', `localhost:${rx.port}`)], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }), true);
    let output = '';
    let errors = '';
    listening.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    listening.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exited = new Promise<number | null>((resolve) => listening.on('exit', (code) => resolve(code)));
    try {
      await until(() => output.includes('Ready') || listening.exitCode !== null, 120_000, `listen ready: ${output} ${errors}`);
      expect(listening.exitCode, errors).toBeNull();
      const secret = /signing secret is (whsec_\S+)/.exec(output)![1]!;

      const ran = await bash(others!);
      expect(ran.stdout).toMatch(/Triggered cash_in:[\s\S]*Triggered cash_out:[\s\S]*Triggered med_accepted:/);
      expect(ran.stdout).toMatch(/Queued \d+ deliver/);

      const types = () => rx.to('/webhooks').map((r) => (new Webhook(secret).verify(r.body, r.headers as Record<string, string>), r.headers['webhook-id']));
      await until(() => types().length >= 3 && /med_accepted\s+msg_/.test(output), 120_000, `events forwarded: ${output} ${errors}`);
      for (const type of ['cash_in', 'cash_out', 'med_accepted']) expect(output).toMatch(new RegExp(`^${type}\\s+\\S+\\s+200\\s+\\d+ ms$`, 'm'));
      // Any later block of the section runs as written too, and succeeds (bash -e: every line).
      for (const block of later) await bash(block);
      // Ctrl-C (to the terminal's process group) stops it with exit 0.
      process.kill(-listening.pid!, 'SIGINT');
      expect(await exitWithin(listening, exited, 30_000, 'the README\'s listen after Ctrl-C', true)).toBe(0);
    } finally {
      await killRunning();
      await rx.close();
    }
  }, 300_000);
});
