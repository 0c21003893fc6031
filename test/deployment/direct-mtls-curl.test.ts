import { execFile, spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './instances-kit.ts';
import { makeServerCertificate, writeKeyPair } from './tls-kit.ts';

const run = promisify(execFile);
const hasCurl = spawnSync('curl', ['--version']).status === 0;
if (!hasCurl && process.env.CURL_REQUIRED) throw new Error('CURL_REQUIRED is set but curl cannot be run (apt-get install curl; .ci/run installs it)');
if (!hasCurl) console.log('direct mTLS curl test SKIPPED: curl is not installed');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasCurl)('the service terminating mTLS itself, driven by curl', () => {
  it('the sandbox prints a curl that gets a token over mutual TLS with the demo certificate, and the token opens the API; kill -HUP rotates the server certificate', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-direct-'));
    dirs.push(dataDir);
    const server = writeKeyPair(await makeServerCertificate(), dataDir);
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        MODE: 'sandbox',
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        TLS_CERT_FILE: server.certFile,
        TLS_KEY_FILE: server.keyFile,
        TLS_CLIENT_AUTH: 'optional',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      for (let i = 0; i < 600 && !output.includes('Then: curl'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain(`https://127.0.0.1:${port}`);
      // The printed command, as a newcomer pastes it.
      const command = output.slice(output.indexOf('curl -s -X POST'), output.indexOf('\n', output.indexOf("-d '{")));
      expect(command).toContain('--cert');
      const { stdout } = await run('bash', ['-c', command]);
      const token = JSON.parse(stdout);
      expect(token.token_type).toBe('Bearer');
      const balance = await run('curl', ['-s', '-k', `https://127.0.0.1:${port}/api/balance`, '-H', `Authorization: Bearer ${token.access_token}`]);
      expect(JSON.parse(balance.stdout).netBalance).toBe(10000);
      // The same request without the certificate on the handshake is refused.
      const bare = await run('bash', ['-c', command.replace(/--cert '[^']+' --key '[^']+'/, '-w " %{http_code}"')]);
      expect(bare.stdout).toMatch(/PUB_CERT_HEADER_MISSING.* 400$/s);

      // Rotation: new files, `kill -HUP`; the running process serves the new certificate to new
      // handshakes, and the printed command still gets a token.
      const rotated = await makeServerCertificate('rotated by SIGHUP');
      writeKeyPair(rotated, dataDir);
      child.kill('SIGHUP');
      const presented = () =>
        new Promise<string>((resolve, reject) => {
          const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
            resolve(socket.getPeerCertificate().fingerprint256);
            socket.end();
          });
          socket.on('error', reject);
        });
      const wanted = new X509Certificate(rotated.certPem).fingerprint256;
      for (let i = 0; i < 50 && (await presented()) !== wanted; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await presented()).toBe(wanted);
      expect(child.exitCode).toBeNull();
      expect(JSON.parse((await run('bash', ['-c', command])).stdout).token_type).toBe('Bearer');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
