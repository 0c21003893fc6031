import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

  const tsc = (project: string) => run(process.execPath, [path.join(consumer, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: consumer });
  const compileErrors = (project: string) => tsc(project).then(
    () => '',
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );

  beforeAll(async () => {
    // `prepare` builds dist/ (the service's own TypeScript compiler), then only the manifest's files ship.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: path.join(root, 'sdk'), env, maxBuffer: 16 << 20 });
    rmSync(path.join(root, 'sdk/dist'), { recursive: true, force: true });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    files = (packed.files as Array<{ path: string }>).map((f) => f.path).sort();

    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), '{ "name": "integrator", "private": true, "type": "module" }\n');
    const install = ['install', '--no-audit', '--no-fund', '--no-package-lock', path.join(work, packed.filename), `typescript@${versionOf('typescript')}`, `@types/node@${versionOf('@types/node')}`];
    // Offline first (npm's cache holds what the repository's install fetched); the registry otherwise.
    await run('npm', [...install, '--offline'], { cwd: consumer, env }).catch(() => run('npm', [...install, '--prefer-offline'], { cwd: consumer, env }));
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships only dist/ (JavaScript and declarations) and the README, with types and import exports', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts', 'dist/admin.js', 'dist/admin.d.ts', 'README.md', 'package.json']) expect(files).toContain(file);
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json')).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    // Installed with its own dependencies, in the project's node_modules.
    const modules = readdirSync(path.join(consumer, 'node_modules'));
    for (const dependency of ['openapi-fetch', 'standardwebhooks', 'undici', '@pix-account-service']) expect(modules).toContain(dependency);
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
      `import { createPixAdminClient, createPixClient, createWebhooks, PixApiError, unwrap, type WebhookEvent } from '@pix-account-service/sdk';
const pix = createPixClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'id', clientSecret: 'secret', certificate: { cert: 'pem' } });
const admin = createPixAdminClient({ baseUrl: 'http://127.0.0.1:9', adminToken: 'token' });
export async function flow(): Promise<string> {
  const payout = await pix.http.POST('/api/pix/cash-out', { body: { value: 1, externalId: 'p-1', details: { key: 'a@b.co', keyType: 'EMAIL', name: 'N', document: '52998224725' } } });
  if (payout.error) return payout.error.code;
  const charge = await unwrap(pix.http.POST('/api/pix/cash-in', { body: { transaction: { value: 1, description: 'd', externalId: 'c-1' }, payer: { fullName: 'F', document: '52998224725' } } }));
  return charge.transactionId;
}
export async function operator(): Promise<string> {
  const accounts = await unwrap(admin.http.GET('/admin/accounts', { params: { query: { q: 'Maria', pageSize: 10 } } }));
  const rotated = await unwrap(admin.http.POST('/admin/accounts/{id}/webhook-secret/rotate', { params: { path: { id: String(accounts.data[0]!.id) } } }));
  const refused = await admin.http.DELETE('/admin/accounts/{id}/members/{memberId}', { params: { path: { id: '1', memberId: '2' } } });
  return refused.error ? refused.error.error : rotated.secret;
}
export const onEvent = (event: WebhookEvent) => ('event' in event ? event.event : event.type);
console.log(typeof createPixClient, typeof createPixAdminClient, typeof createWebhooks, PixApiError.name);
`,
    );
    expect(await compileErrors(consumer)).toBe('');
    const ran = await run(process.execPath, [path.join(consumer, 'out/flow.js')]);
    expect(ran.stdout.trim()).toBe('function function function PixApiError');
  }, COMPILE_MS);

  it('refuses, from the shipped declarations, a wrong type for an answer\'s field and for a query parameter (the check can fail)', async () => {
    const flow = readFileSync(path.join(consumer, 'flow.ts'), 'utf8');
    writeFileSync(path.join(consumer, 'flow.ts'), flow.replace('Promise<string> {\n  const accounts', 'Promise<number> {\n  const accounts').replace("q: 'Maria'", 'q: 42'));
    const errors = await compileErrors(consumer);
    expect(errors).toMatch(/flow\.ts\(11,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(errors).toMatch(/flow\.ts\(14,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    writeFileSync(path.join(consumer, 'flow.ts'), flow);
  }, COMPILE_MS);
});
