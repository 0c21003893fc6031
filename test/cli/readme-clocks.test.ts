import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnv, startSandbox, workDir, type Sandbox } from './cli-kit.ts';

/** The `pix` processes (npx, tsx) take seconds each; far more on a loaded machine. */
const TEST_MS = 240_000;

/** The README's "Develop against the sandbox" clocks lines: the one sh block that starts with CLOCK=. */
function clocksBlock(): string {
  const readme = readFileSync(path.resolve('README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Develop against the sandbox'));
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith('CLOCK=$(npx pix clocks create'));
  if (!block) throw new Error('README: no clocks block in "Develop against the sandbox"');
  return block;
}

let sandbox: Sandbox;
const work = workDir();
beforeAll(async () => {
  sandbox = await startSandbox();
}, TEST_MS);
afterAll(async () => {
  await sandbox?.stop();
  work.remove();
}, TEST_MS);

it("runs the README's clocks lines verbatim against a running sandbox", async () => {
  const account = await sandbox.account(work.dir);
  const block = clocksBlock();
  const env = cliEnv(work.configHome, {
    ACCOUNT: String(account.id),
    PIX_BASE_URL: sandbox.url,
    PIX_CLIENT_ID: account.clientId,
    PIX_CLIENT_SECRET: account.clientSecret,
    PIX_CERT_FILE: account.certFile,
  });
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('sh', ['-ec', block], { cwd: path.resolve('.'), env, timeout: TEST_MS - 10_000 }, (error, out, err) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
    );
  });
  expect(code, stderr).toBe(0);
  const lines = stdout.trim().split('\n');
  // advance waited until ready at the new time; list showed it; delete removed it.
  expect(lines[0]).toMatch(new RegExp(`^[0-9a-f-]{36}  ready      2027-04-05T15:00:00\\.000Z  accounts ${account.id}$`));
  const id = lines[0]!.split(' ')[0]!;
  expect(lines[1]).toBe(lines[0]);
  expect(lines[2]).toBe(`Deleted test clock ${id}.`);
  expect((await sandbox.admin('GET', '/sandbox/test-clocks')).data).toEqual([]);
}, TEST_MS);
