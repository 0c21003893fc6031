import { execFile, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, call, createOwnDatabase, freePort, startInstance, type Instance } from '../deployment/instances-kit.ts';
import { NGINX, startNginx, upstreamServers, waitForPort } from '../deployment/nginx-kit.ts';
import { makeServerCertificate, writeKeyPair } from '../deployment/tls-kit.ts';

const run = promisify(execFile);
if (!NGINX && (process.env.NGINX_REQUIRED === '1' || process.env.CI === '1' || process.env.CI === 'true')) {
  throw new Error('NGINX_REQUIRED is set but nginx is not installed (apt-get install nginx-light; .ci/run installs it)');
}
if (!NGINX) console.log('deploy/nginx test SKIPPED: nginx is not installed (.ci/run installs Debian\'s nginx-light)');

describe.skipIf(!NGINX)('deploy/nginx: TLS termination with client certificates in front of two instances', () => {
  let db: Awaited<ReturnType<typeof createOwnDatabase>>;
  let instances: Instance[] = [];
  let nginx: ChildProcess | undefined;
  let dir: string;
  let base: string;
  let files: { serverCert: string; clientCert: string; clientKey: string };
  let credentials: { clientId: string; clientSecret: string };

  /** curl through nginx; answers status, HTTP version and JSON body. */
  async function curl(urlPath: string, options: { cert?: boolean; body?: unknown; headers?: string[]; http2?: boolean } = {}) {
    const args = ['-sS', '--cacert', files.serverCert, '-w', '\n%{http_code} %{http_version}'];
    if (options.cert) args.push('--cert', files.clientCert, '--key', files.clientKey);
    args.push(options.http2 ? '--http2' : '--http1.1');
    for (const header of options.headers ?? []) args.push('-H', header);
    if (options.body !== undefined) args.push('-H', 'content-type: application/json', '-d', JSON.stringify(options.body));
    const { stdout } = await run('curl', [...args, `${base}${urlPath}`]);
    const lines = stdout.trimEnd().split('\n');
    const [status, version] = lines.pop()!.split(' ');
    const text = lines.join('\n');
    return { status: Number(status), version, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    db = await createOwnDatabase(process.env.TEST_DATABASE_URL!);
    // Two processes on one database, started together (migrations take turns on an advisory lock).
    instances = await Promise.all(['a', 'b'].map((name) => startInstance(name, db.url, { TRUSTED_PROXIES: '127.0.0.1' })));

    dir = mkdtempSync(path.join(tmpdir(), 'pix-nginx-'));
    const server = writeKeyPair(await makeServerCertificate('nginx front'), dir);
    const port = await freePort();
    base = `https://127.0.0.1:${port}`;
    nginx = await startNginx(dir, {
      LISTEN_PORT: `127.0.0.1:${port}`,
      TLS_CERT_FILE: server.certFile,
      TLS_KEY_FILE: server.keyFile,
      UPSTREAM_SERVERS: upstreamServers(instances.map((i) => `127.0.0.1:${i.port}`)),
    });
    await waitForPort(port);

    // An account with a certificate (and its private key) and credentials, through the admin API.
    const admin = instances[0]!.url;
    const account = await call(admin, 'POST', '/admin/accounts', { name: 'Nginx Teste', document: '52998224725' }, asAdmin);
    expect(account.status).toBe(201);
    const cert = await call(admin, 'POST', `/admin/accounts/${account.body.id}/certificates`, {}, asAdmin);
    const creds = await call(admin, 'POST', `/admin/accounts/${account.body.id}/credentials`, {}, asAdmin);
    credentials = { clientId: creds.body.clientId, clientSecret: creds.body.clientSecret };
    files = { serverCert: server.certFile, clientCert: path.join(dir, 'client-cert.pem'), clientKey: path.join(dir, 'client-key.pem') };
    writeFileSync(files.clientCert, cert.body.certificatePem);
    writeFileSync(files.clientKey, cert.body.privateKeyPem);
  }, 180_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(instances.map((i) => i.stop()));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('curl with a real client certificate gets a token (HTTP/1.1 and HTTP/2), and the token opens the API', async () => {
    const token = await curl('/api/auth/token', { cert: true, body: credentials });
    expect(token.status).toBe(201);
    const balance = await curl('/api/balance', { cert: true, headers: [`Authorization: Bearer ${token.body.access_token}`] });
    expect(balance.status).toBe(200);
    expect(balance.body).toHaveProperty('netBalance');
    const overH2 = await curl('/oauth/token', { cert: true, body: credentials, http2: true });
    expect(overH2.version).toBe('2');
    expect(overH2.status).toBe(200);
  });

  it('without a client certificate the token request is refused, even with a forged X-SSL-Client-Cert', async () => {
    const bare = await curl('/api/auth/token', { body: credentials });
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe('PUB_CERT_HEADER_MISSING');
    const forged = await curl('/api/auth/token', {
      body: credentials,
      headers: [`X-SSL-Client-Cert: ${encodeURIComponent(readFileSync(files.clientCert, 'utf8'))}`],
    });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('PUB_CERT_HEADER_MISSING');
  });

  it('requests reach both instances, with the edge request id in their logs', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await curl('/health', { headers: [`X-Request-Id: edge-probe-${i}`] })).status).toBe(200);
    }
    const servedBy = () =>
      instances.map((instance) =>
        instance.lines().filter((l) => l.msg === 'request' && l.route === '/health' && String(l.reqId).startsWith('edge-probe-')),
      );
    // A log line may still be on its way through the child's stdout.
    for (let i = 0; i < 50 && servedBy().flat().length < 12; i++) await new Promise((r) => setTimeout(r, 100));
    const served = servedBy();
    expect(served[0]!.length).toBeGreaterThan(0);
    expect(served[1]!.length).toBeGreaterThan(0);
    expect(served[0]!.length + served[1]!.length).toBe(12);
    // nginx states the client's address; the instances believe it because nginx is a trusted proxy.
    expect(served.flat().every((l) => l.ip === '127.0.0.1')).toBe(true);
  });
});

describe.skipIf(!NGINX)('deploy/nginx: a front started before its instances serves as soon as they listen', () => {
  let dir: string;
  let nginx: ChildProcess | undefined;
  const upstreams: http.Server[] = [];
  afterAll(async () => {
    nginx?.kill('SIGTERM');
    await Promise.all(upstreams.map((server) => new Promise((resolve) => server.close(resolve))));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 502 while nothing listens, then 200 from both instances within about 2 s of them listening (nginx\'s default would wait 10 s)', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-nginx-early-'));
    const server = writeKeyPair(await makeServerCertificate('nginx front'), dir);
    const [port, a, b] = [await freePort(), await freePort(), await freePort()];
    nginx = await startNginx(dir, {
      LISTEN_PORT: `127.0.0.1:${port}`,
      TLS_CERT_FILE: server.certFile,
      TLS_KEY_FILE: server.keyFile,
      UPSTREAM_SERVERS: upstreamServers([`127.0.0.1:${a}`, `127.0.0.1:${b}`]),
    });
    await waitForPort(port);
    const get = async () => {
      const { stdout } = await run('curl', ['-sS', '--cacert', server.certFile, '-w', '\n%{http_code}', `https://127.0.0.1:${port}/health`]);
      const lines = stdout.trimEnd().split('\n');
      return { status: Number(lines.pop()), body: lines.join('\n') };
    };

    // Hit before the instances listen: every instance refuses, and nginx marks each one failed.
    for (let i = 0; i < 5; i++) expect((await get()).status).toBe(502);

    // The instances come up (stand-ins: what matters here is nginx's view of the upstream).
    for (const [name, listenPort] of [['a', a], ['b', b]] as const) {
      const upstream = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ instance: name })));
      await new Promise<void>((resolve) => upstream.listen(listenPort, '127.0.0.1', resolve));
      upstreams.push(upstream);
    }
    const listening = Date.now();
    let first: number | undefined;
    while (first === undefined && Date.now() - listening < 12_000) {
      if ((await get()).status === 200) first = Date.now() - listening;
      else await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`deploy/nginx: first 200 ${first} ms after the instances listened`);
    expect(first).toBeDefined();
    expect(first!).toBeLessThan(3_500);

    // And both serve again, not only the first one retried.
    await new Promise((r) => setTimeout(r, 2_500));
    const served = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const answer = await get();
      expect(answer.status).toBe(200);
      served.add(JSON.parse(answer.body).instance);
    }
    expect([...served].sort()).toEqual(['a', 'b']);
  }, 60_000);
});
