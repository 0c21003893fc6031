import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
// Inside the project, so the consumer resolves openapi-fetch, undici and standardwebhooks (the SDK's
// dependencies, which an npm install would bring) from its node_modules.
mkdirSync('node_modules/.cache', { recursive: true });
const work = path.resolve(mkdtempSync('node_modules/.cache/pix-sdk-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('sdk/ as a published package', () => {
  it('npm pack builds dist/ and ships only it: a TypeScript consumer type-checks a flow against it and runs it on plain Node', async () => {
    const manifest = JSON.parse(readFileSync('sdk/package.json', 'utf8'));
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });

    const env = { ...process.env, PATH: `${path.resolve('node_modules/.bin')}${path.delimiter}${process.env.PATH}` };
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: 'sdk', env });
    rmSync('sdk/dist', { recursive: true, force: true });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    const files = (packed.files as Array<{ path: string }>).map((f) => f.path).sort();
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/openapi.d.ts');
    expect(files.filter((f) => f.startsWith('src/') || f.endsWith('.test.ts'))).toEqual([]);

    const consumer = path.join(work, 'consumer');
    const installed = path.join(consumer, 'node_modules/@pix-account-service/sdk');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['xzf', path.join(work, packed.filename), '-C', installed, '--strip-components=1']);
    writeFileSync(path.join(consumer, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', types: ['node'], typeRoots: [path.resolve('node_modules/@types')] },
        files: ['flow.ts'],
      }),
    );
    // Typed bodies, answers and errors from the package's own declarations (no skipLibCheck).
    writeFileSync(
      path.join(consumer, 'flow.ts'),
      `import { createPixClient, PixApiError, unwrap } from '@pix-account-service/sdk';
const pix = createPixClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'id', clientSecret: 'secret', certificate: { cert: 'pem' } });
export async function flow(): Promise<string> {
  const payout = await pix.http.POST('/api/pix/cash-out', { body: { value: 1, externalId: 'p-1', details: { key: 'a@b.co', keyType: 'EMAIL', name: 'N', document: '52998224725' } } });
  if (payout.error) return payout.error.code;
  const charge = await unwrap(pix.http.POST('/api/pix/cash-in', { body: { transaction: { value: 1, description: 'd', externalId: 'c-1' }, payer: { fullName: 'F', document: '52998224725' } } }));
  return charge.transactionId;
}
console.log(typeof createPixClient, PixApiError.name);
`,
    );
    await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', consumer]);
    const ran = await run(process.execPath, [path.join(consumer, 'out/flow.js')]);
    expect(ran.stdout.trim()).toBe('function PixApiError');

    // The check can fail: a wrong type for an answer's field is refused by the shipped declarations.
    writeFileSync(path.join(consumer, 'flow.ts'), readFileSync(path.join(consumer, 'flow.ts'), 'utf8').replace('Promise<string>', 'Promise<number>'));
    const refused = await run(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', consumer]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(refused).toMatch(/flow\.ts.*error TS2322/);
  }, 180_000);
});
