import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

const run = promisify(execFile);
const root = path.resolve('.');
const env = { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` };
// A full type check of the SDK's declarations and @types/node (no skipLibCheck) is seconds of CPU
// on an idle machine and minutes on a loaded one.
const COMPILE_MS = 240_000;
const versionOf = (name: string) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;

/**
 * sdk/ as integrators get it (issue 21 item 4): `npm pack`, then `npm install <tarball>` in an empty
 * project outside the repository (its dependencies from npm's cache, or the registry when the cache
 * lacks them), where TypeScript compiles code using it under `strict` without `skipLibCheck`, and
 * examples/ type-check as their own package sees them. Packed and installed once per run, shared by
 * the tests below.
 */
describe('sdk/ as a published package', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'pix-sdk-'));
  const consumer = path.join(work, 'consumer');
  let files: string[] = [];
  let h: Harness;
  /** A live sandbox account for the consumers: the service on a port, the certificate and credentials in the environment. */
  let sandboxEnv: Record<string, string> = {};
  let cjsEnv: Record<string, string> = {};
  let publishDryRun = { stdout: '', stderr: '' };

  const tsc = (project: string) => run(process.execPath, [path.join(consumer, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: consumer });
  const compileErrors = (project: string) => tsc(project).then(
    () => '',
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );

  beforeAll(async () => {
    // `prepare` builds dist/ (the service's own TypeScript compiler), then only the manifest's files ship.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: path.join(root, 'sdk'), env, maxBuffer: 16 << 20 });
    // What `npm publish` would send, judged on the same build (no registry is written to).
    publishDryRun = await run('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], { cwd: path.join(root, 'sdk'), env, maxBuffer: 16 << 20 });
    rmSync(path.join(root, 'sdk/dist'), { recursive: true, force: true });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    files = (packed.files as Array<{ path: string }>).map((f) => f.path).sort();

    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), '{ "name": "integrator", "private": true, "type": "module" }\n');
    const install = ['install', '--no-audit', '--no-fund', '--no-package-lock', path.join(work, packed.filename), `typescript@${versionOf('typescript')}`, `@types/node@${versionOf('@types/node')}`];
    // Offline first (npm's cache holds what the repository's install fetched); the registry otherwise.
    await run('npm', [...install, '--offline'], { cwd: consumer, env }).catch(() => run('npm', [...install, '--prefer-offline'], { cwd: consumer, env }));

    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const sandboxAccount = async () => {
      const account = await h.createAccount({ funds: 500 });
      const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
      const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
      return {
        PIX_BASE_URL: `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`,
        PIX_CLIENT_ID: creds.clientId as string,
        PIX_CLIENT_SECRET: creds.clientSecret as string,
        PIX_CERT: cert.certificatePem as string,
      };
    };
    sandboxEnv = await sandboxAccount();
    cjsEnv = await sandboxAccount();
  }, 300_000);
  afterAll(async () => {
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('ships the two builds, one declaration set, the pix command, README, CHANGELOG and LICENSE, with an exports map for import and require', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
    expect(manifest.exports['.']).toEqual({ types: './dist/types/index.d.ts', import: './dist/esm/index.js', require: './dist/cjs/index.js' });
    expect(manifest).toMatchObject({ license: 'MIT', main: './dist/cjs/index.js', types: './dist/types/index.d.ts', bin: { pix: 'bin/pix.js' } });
    for (const file of ['dist/esm/index.js', 'dist/cjs/index.js', 'dist/cjs/package.json', 'dist/types/index.d.ts', 'dist/types/openapi.d.ts', 'dist/esm/admin.js', 'dist/cjs/admin.js', 'dist/esm/cli/main.js', 'bin/pix.js', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']) expect(files).toContain(file);
    expect(files.filter((f) => !f.startsWith('dist/') && !['bin/pix.js', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'].includes(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    // One declaration set: only dist/types has any.
    expect(files.filter((f) => f.endsWith('.d.ts') && !f.startsWith('dist/types/'))).toEqual([]);
    // Installed with its own dependencies, in the project's node_modules.
    const modules = readdirSync(path.join(consumer, 'node_modules'));
    for (const dependency of ['openapi-fetch', 'standardwebhooks', 'undici', '@pix-account-service']) expect(modules).toContain(dependency);
  });

  it('is publishable: `npm publish --dry-run` names the same files and warns of nothing but the missing registry login', () => {
    const answer = JSON.parse(publishDryRun.stdout.slice(publishDryRun.stdout.indexOf('{')));
    // npm 10 keys the summary by the package's name (workspaces-style); older npm answers it directly.
    const published = answer['@pix-account-service/sdk'] ?? answer;
    expect(published).toMatchObject({ name: '@pix-account-service/sdk', version: JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8')).version });
    expect((published.files as Array<{ path: string }>).map((f) => f.path).sort()).toEqual(files);
    const warnings = publishDryRun.stderr.split('\n').filter((line) => /\bwarn\b/i.test(line) && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });

  it('installs the pix command from the tarball: its compiled build runs', async () => {
    const { stdout } = await run(path.join(consumer, 'node_modules/.bin/pix'), ['trigger', '--help'], { cwd: consumer });
    expect(stdout).toMatch(/^Usage: pix trigger EVENT/);
    const usage = await run(path.join(consumer, 'node_modules/.bin/pix'), ['trigger', 'nothing'], { cwd: consumer }).catch((e: { code: number; stderr: string }) => e);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/^pix: Unknown event "nothing"/) });
  });

  it('compiles a consumer and examples/ under strict without skipLibCheck (account client, admin client, webhooks) and runs it on plain Node', async () => {
    // examples/ as their own package sees them: the SDK by its package name, from node_modules.
    const examples = path.join(consumer, 'examples');
    mkdirSync(examples, { recursive: true });
    for (const file of readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.ts'))) cpSync(path.join(root, 'examples', file), path.join(examples, file));
    const sources = readdirSync(examples);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const file of sources) expect(readFileSync(path.join(examples, file), 'utf8'), file).toMatch(/from '@pix-account-service\/sdk'/);
    for (const file of sources) expect(readFileSync(path.join(examples, file), 'utf8'), file).not.toMatch(/from '\.\.\/sdk/);
    expect(JSON.parse(readFileSync(path.join(root, 'examples/package.json'), 'utf8')).dependencies).toEqual({ '@pix-account-service/sdk': 'file:../sdk' });
    const examplesConfig = JSON.parse(readFileSync(path.join(root, 'examples/tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
    expect(examplesConfig.compilerOptions).toMatchObject({ strict: true });
    expect(examplesConfig.compilerOptions.skipLibCheck).toBeUndefined();

    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'],
          outDir: 'out', rewriteRelativeImportExtensions: true, incremental: true, tsBuildInfoFile: 'out/.tsbuildinfo',
        },
        include: ['flow.ts', 'examples/*.ts'],
      }),
    );
    writeFileSync(
      path.join(consumer, 'flow.ts'),
      `import { createPixAdminClient, createPixClient, PixApiError, unwrap, type WebhookEvent } from '@pix-account-service/sdk';
const pix = createPixClient({ baseUrl: process.env.PIX_BASE_URL!, clientId: process.env.PIX_CLIENT_ID!, clientSecret: process.env.PIX_CLIENT_SECRET!, certificate: { cert: process.env.PIX_CERT! } });
const admin = createPixAdminClient({ baseUrl: 'http://127.0.0.1:9', adminToken: 'token' });
export async function flow(): Promise<string[]> {
  const charge = await pix.charges.create({ transaction: { value: 12.5, description: 'Pedido ESM', externalId: 'esm-charge' }, payer: { fullName: 'Maria da Silva', document: '52998224725' } }, { scenario: 'pending' });
  const payout = await pix.cashOut.create({ value: 2, externalId: 'esm-payout', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano', document: '52998224725' } });
  const read = await pix.transactions.get(charge.transactionId);
  let listed = 0;
  for await (const tx of pix.transactions.list({ size: 1 })) listed += tx.transactionId.length > 0 ? 1 : 0;
  const refused = await pix.cashOut.create({ value: 900, externalId: 'esm-too-much', details: { key: 'fulano@example.com', keyType: 'EMAIL', name: 'Fulano', document: '52998224725' } }).catch((e: unknown) => e);
  const raw = await unwrap(pix.http.GET('/api/balance'));
  return [charge.status, payout.status, read.externalId ?? '', String(listed), refused instanceof PixApiError ? refused.status + ' ' + refused.code : 'not refused', String(raw.netBalance)];
}
export async function operator(): Promise<string> {
  const accounts = await admin.accounts.list({ q: 'Maria', pageSize: 10 });
  for await (const account of admin.accounts.list({ q: 'Maria' })) return account.name;
  return accounts.data[0]!.name;
}
export const onEvent = (event: WebhookEvent) => ('event' in event ? event.event : event.type);
console.log(JSON.stringify(await flow()));
console.log(import.meta.resolve('@pix-account-service/sdk'));
`,
    );
    expect(await compileErrors(consumer)).toBe('');
    const ran = await run(process.execPath, [path.join(consumer, 'out/flow.js')], { env: { ...process.env, ...sandboxEnv } });
    const [result, resolved] = ran.stdout.trim().split('\n');
    // deposit + charge + payout, one page of one each; the refused payout moved nothing.
    expect(JSON.parse(result!)).toEqual(['PENDING', 'PENDING', 'esm-charge', '3', '400 PIX_INSUFFICIENT_BALANCE', '498']);
    expect(resolved).toMatch(/\/dist\/esm\/index\.js$/);
  }, COMPILE_MS);

  it('compiles a CommonJS consumer under strict without skipLibCheck, whose require() gets the CommonJS build and works against the sandbox', async () => {
    const cjs = path.join(consumer, 'cjs');
    mkdirSync(cjs, { recursive: true });
    writeFileSync(path.join(cjs, 'package.json'), '{ "name": "integrator-cjs", "private": true, "type": "commonjs" }\n');
    writeFileSync(
      path.join(cjs, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out' },
        include: ['flow.ts'],
      }),
    );
    writeFileSync(
      path.join(cjs, 'flow.ts'),
      `import { createPixClient, PixApiError, type TransactionListItem } from '@pix-account-service/sdk';
const pix = createPixClient({ baseUrl: process.env.PIX_BASE_URL!, clientId: process.env.PIX_CLIENT_ID!, clientSecret: process.env.PIX_CLIENT_SECRET!, certificate: { cert: process.env.PIX_CERT! } });
async function main(): Promise<void> {
  const charge = await pix.charges.create({ transaction: { value: 7, description: 'Pedido CJS', externalId: 'cjs-charge' }, payer: { fullName: 'Maria da Silva', document: '52998224725' } }, { scenario: 'pending' });
  const items: TransactionListItem[] = await pix.transactions.list({ size: 100 }).toArray();
  const balance = await pix.balance.get();
  const missing = await pix.transactions.get('cjs-nothing').catch((e: unknown) => e);
  console.log(JSON.stringify([charge.status, items.length, balance.netBalance, missing instanceof PixApiError ? missing.status : 0]));
  console.log(require.resolve('@pix-account-service/sdk'));
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`,
    );
    expect(await compileErrors(cjs)).toBe('');
    const compiled = readFileSync(path.join(cjs, 'out/flow.js'), 'utf8');
    expect(compiled).toMatch(/require\("@pix-account-service\/sdk"\)/);
    const ran = await run(process.execPath, [path.join(cjs, 'out/flow.js')], { env: { ...process.env, ...cjsEnv } });
    const [result, resolved] = ran.stdout.trim().split('\n');
    expect(JSON.parse(result!)).toEqual(['PENDING', 2, 500, 404]);
    expect(resolved).toMatch(/\/dist\/cjs\/index\.js$/);
  }, COMPILE_MS);

  it('refuses, from the shipped declarations, a wrong type for an answer\'s field and for a query parameter (the check can fail)', async () => {
    const flow = readFileSync(path.join(consumer, 'flow.ts'), 'utf8');
    writeFileSync(path.join(consumer, 'flow.ts'), flow.replace('Promise<string> {\n  const accounts', 'Promise<number> {\n  const accounts').replace("q: 'Maria', pageSize", 'q: 42, pageSize'));
    const errors = await compileErrors(consumer);
    expect(errors).toMatch(/flow\.ts\(15,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(errors).toMatch(/flow\.ts\(16,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    writeFileSync(path.join(consumer, 'flow.ts'), flow);
  }, COMPILE_MS);
});
