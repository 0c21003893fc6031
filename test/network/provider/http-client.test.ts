import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviderHttp, ProviderTransportError } from '../../../src/network/provider/http-client.ts';
import { makeServerCertificate } from '../../deployment/tls-kit.ts';
import { TEST_PROVIDER_CERT_FILE, TEST_PROVIDER_KEY_FILE } from '../../provider-env.ts';

const clientCert = readFileSync(TEST_PROVIDER_CERT_FILE, 'utf8');
const clientKey = readFileSync(TEST_PROVIDER_KEY_FILE, 'utf8');

let server: https.Server;
let plain: http.Server;
let serverCertPem: string;
const base = (s: http.Server | https.Server, scheme: string) => `${scheme}://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  const pair = await makeServerCertificate();
  serverCertPem = pair.certPem;
  // A provider that asks for a client certificate and tells which one it got.
  server = https.createServer({ cert: pair.certPem, key: pair.keyPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ fingerprint: peer?.fingerprint256 ?? null, method: req.method, url: req.url }));
  });
  plain = http.createServer((req, res) => {
    if (req.url === '/slow') return; // never answers
    if (req.url === '/html') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
    res.writeHead(200).end('not json');
  });
  await Promise.all([new Promise<void>((r) => server.listen(0, '127.0.0.1', r)), new Promise<void>((r) => plain.listen(0, '127.0.0.1', r))]);
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  plain.closeAllConnections();
  plain.close();
});

describe('HTTP to the provider', () => {
  it('presents our client certificate on TLS (mutual TLS), trusting the provider through PROVIDER_CA_FILE', async () => {
    const client = createProviderHttp({ baseUrl: base(server, 'https'), tls: { cert: clientCert, key: clientKey, ca: serverCertPem }, timeoutMs: 5_000 });
    try {
      const answer = await client.send({ method: 'GET', path: '/api/balance' });
      expect(answer.status).toBe(200);
      expect((answer.body as { fingerprint: string }).fingerprint).toBe(new X509Certificate(clientCert).fingerprint256);
    } finally {
      await client.close();
    }
  });

  it('refuses a provider whose server certificate it cannot trust', async () => {
    const client = createProviderHttp({ baseUrl: base(server, 'https'), tls: { cert: clientCert, key: clientKey }, timeoutMs: 5_000 });
    try {
      await expect(client.send({ method: 'GET', path: '/api/balance' })).rejects.toThrow(ProviderTransportError);
    } finally {
      await client.close();
    }
  });

  it('bounds every wait: a provider that never answers is a transport error after the timeout', async () => {
    const client = createProviderHttp({ baseUrl: base(plain, 'http'), tls: { cert: clientCert, key: clientKey }, timeoutMs: 300 });
    try {
      const started = Date.now();
      await expect(client.send({ method: 'GET', path: '/slow' })).rejects.toThrow(/timed out/);
      expect(Date.now() - started).toBeLessThan(3_000);
      // A proxy's HTML 5xx is still an answer (its status says enough); a 2xx that is not JSON is not.
      expect((await client.send({ method: 'GET', path: '/html' })).status).toBe(502);
      await expect(client.send({ method: 'GET', path: '/text' })).rejects.toThrow(/not JSON/);
      await expect(createProviderHttp({ baseUrl: 'http://127.0.0.1:1', tls: { cert: clientCert, key: clientKey }, timeoutMs: 1_000 }).send({ method: 'GET', path: '/' })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await client.close();
    }
  });
});
