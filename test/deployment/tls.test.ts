import { X509Certificate, createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadCertificatesOnSighup } from '../../src/http/tls.ts';
import { makeClientCertificate } from '../../src/services/auth/x509.ts';
import { TEST_START, startHarness, type Harness } from '../harness.ts';
import { https1, https2, makeServerCertificate, writeKeyPair, type ClientIdentity } from './tls-kit.ts';

let h: Harness;
let port: number;
let serverPem: string;
let files: ReturnType<typeof writeKeyPair>;
let client: { identity: Required<ClientIdentity>; clientId: string; clientSecret: string; accountId: number };

beforeAll(async () => {
  const server = await makeServerCertificate();
  serverPem = server.certPem;
  files = writeKeyPair(server);
  h = await startHarness({ env: { TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile, TLS_CLIENT_AUTH: 'optional' } });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
  const account = await h.createAccount();
  const cert = (await h.admin('POST', `/admin/accounts/${account.id}/certificates`, {})).json();
  const creds = (await h.admin('POST', `/admin/accounts/${account.id}/credentials`, {})).json();
  client = {
    identity: { cert: cert.certificatePem, key: cert.privateKeyPem },
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    accountId: account.id,
  };
}, 60_000);

afterAll(async () => {
  await h?.close();
  rmSync(files.dir, { recursive: true, force: true });
});

const credentials = () => ({ clientId: client.clientId, clientSecret: client.clientSecret });

describe('HTTPS with client certificates (TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_AUTH=optional)', () => {
  it('HTTP/1.1: the certificate proven on the handshake gets a token, and the token opens the API', async () => {
    const token = await https1(port, serverPem, { method: 'POST', path: '/api/auth/token', body: credentials(), identity: client.identity });
    expect(token.protocol).toBe('HTTP/1.1');
    expect(token.status).toBe(201);
    const balance = await https1(port, serverPem, {
      method: 'GET',
      path: '/api/balance',
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(balance.status).toBe(200);
    expect(balance.body).toHaveProperty('netBalance');
  });

  it('HTTP/2 on the same port: the handshake certificate gets a token from /api/auth/token and /oauth/token', async () => {
    const api = await https2(port, serverPem, { method: 'POST', path: '/api/auth/token', body: credentials(), identity: client.identity });
    expect(api.protocol).toBe('h2:h2');
    expect(api.status).toBe(201);
    const oauth = await https2(port, serverPem, { method: 'POST', path: '/oauth/token', body: credentials(), identity: client.identity });
    expect(oauth.status).toBe(200);
    expect(oauth.body.token_type).toBe('Bearer');
  });

  it('the token is bound to the proven certificate (its SHA-256 thumbprint in cnf)', async () => {
    const token = await https1(port, serverPem, { method: 'POST', path: '/api/auth/token', body: credentials(), identity: client.identity });
    const claims = JSON.parse(Buffer.from(token.body.access_token.split('.')[1], 'base64url').toString());
    const der = new X509Certificate(client.identity.cert).raw;
    expect(JSON.stringify(claims)).toContain(createHash('sha256').update(der).digest('base64url'));
  });

  it('without a client certificate on the handshake the token request is refused (400 PUB_CERT_HEADER_MISSING), even with the registered PUBLIC certificate in X-SSL-Client-Cert', async () => {
    const header = { 'x-ssl-client-cert': encodeURIComponent(client.identity.cert) };
    const api = await https1(port, serverPem, { method: 'POST', path: '/api/auth/token', body: credentials(), headers: header });
    expect(api.status).toBe(400);
    expect(api.body.code).toBe('PUB_CERT_HEADER_MISSING');
    expect(JSON.stringify(api.body)).toContain('TLS connection without a client certificate');
    const h2 = await https2(port, serverPem, { method: 'POST', path: '/api/auth/token', body: credentials(), headers: header });
    expect(h2.status).toBe(400);
    const oauth = await https1(port, serverPem, { method: 'POST', path: '/oauth/token', body: credentials(), headers: header });
    expect(oauth.status).toBe(400);
    expect(oauth.body.error).toBe('invalid_request');
  });

  it('a certificate proven on the handshake but not registered is refused (401 PUB_CERT_NOT_REGISTERED)', async () => {
    const stranger = await makeClientCertificate({
      commonName: 'stranger',
      notBefore: new Date(TEST_START.getTime() - 86_400_000),
      notAfter: new Date(TEST_START.getTime() + 365 * 86_400_000),
    });
    const answer = await https1(port, serverPem, {
      method: 'POST',
      path: '/api/auth/token',
      body: credentials(),
      identity: { cert: stranger.certificatePem, key: stranger.privateKeyPem },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('PUB_CERT_NOT_REGISTERED');
  });

  it('SIGHUP re-reads the certificate files: new handshakes get the new certificate, an open connection keeps working', async () => {
    const presented = () =>
      new Promise<string>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
          resolve(socket.getPeerCertificate().fingerprint256);
          socket.end();
        });
        socket.on('error', reject);
      });
    const before = await presented();
    expect(before).toBe(new X509Certificate(serverPem).fingerprint256);

    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await https1(port, serverPem, { method: 'GET', path: '/health', agent });
    expect(first.status).toBe(200);

    const next = await makeServerCertificate('rotated');
    writeFileSync(files.certFile, next.certPem);
    writeFileSync(files.keyFile, next.keyPem);
    const stop = reloadCertificatesOnSighup(h.app.server, h.c.config.tls, h.c.logger);
    try {
      process.emit('SIGHUP', 'SIGHUP');
    } finally {
      stop();
    }
    expect(await presented()).toBe(new X509Certificate(next.certPem).fingerprint256);
    // The kept-alive connection made before the reload still answers, on the same socket.
    const second = await https1(port, serverPem, { method: 'GET', path: '/health', agent });
    expect(second.status).toBe(200);
    expect(second.localPort).toBe(first.localPort);
    agent.destroy();
    // A broken pair (key of another certificate) keeps the current one.
    writeFileSync(files.keyFile, (await makeServerCertificate('other')).keyPem);
    const stopAgain = reloadCertificatesOnSighup(h.app.server, h.c.config.tls, h.c.logger);
    process.emit('SIGHUP', 'SIGHUP');
    stopAgain();
    expect(await presented()).toBe(new X509Certificate(next.certPem).fingerprint256);
    expect(h.logLines.join('')).toContain('TLS certificate reload failed');
  });
});
