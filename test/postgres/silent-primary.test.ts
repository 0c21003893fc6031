import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBE_ANSWER_MS, PROBE_EVERY_MS } from '../../src/db/liveness-probe.ts';
import { pgUrl } from './pg-tools.ts';
import { startSandboxService, until, type SandboxService } from './sandbox-process-kit.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * A primary that goes silent (no reset, no answer) on the multi-host DATABASE_URL (issue 31): the
 * service leaves it within 3 s (the liveness probe on the chosen host) instead of after the 12 s query
 * timeout. Two TCP proxies in front of the same server stand for two hosts; the first, the chosen
 * one, stops forwarding without closing anything. Requests sent after that get 2xx again through
 * the second within 3 s plus a margin for the requests themselves, and none already in flight waits
 * for the query timeout.
 */
const PROMISE_MS = 3_000;
const MARGIN_MS = 3_000;
const QUERY_TIMEOUT_MS = 12_000;

let first: TcpProxy;
let second: TcpProxy;
let s: SandboxService;

beforeAll(async () => {
  const server = new URL(pgUrl());
  const target = { host: server.hostname, port: Number(server.port || 5432) };
  first = await startTcpProxy(target);
  second = await startTcpProxy(target);
  s = await startSandboxService(pgUrl(), {
    workers: 1,
    urlFor: (url) => {
      const u = new URL(url);
      return `postgres://${u.username}${u.password ? `:${u.password}` : ''}@127.0.0.1:${first.port},127.0.0.1:${second.port}${u.pathname}`;
    },
  });
}, 120_000);

afterAll(async () => {
  await s?.stop();
  await first?.close();
  await second?.close();
});

describe('a silent primary on the multi-host URL (PostgreSQL)', () => {
  it('is left within 3 s: 2xx again through the other host, and no request waits for the 12 s query timeout', async () => {
    expect(PROBE_EVERY_MS + PROBE_ANSWER_MS).toBeLessThan(PROMISE_MS);
    const payer = await s.account(10_000);
    const answers: Array<{ sent: number; answered: number; status: number }> = [];
    let running = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (running) {
        const sent = Date.now();
        const res = await payer.api('POST', '/api/pix/cash-out', s.cashOut(1), {}, 60_000);
        answers.push({ sent, answered: Date.now(), status: res.status });
        if (res.status >= 500) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    try {
      await until(() => answers.filter((a) => a.status === 201).length >= 10, 60_000, 'no cash-outs through the first host');
      expect(second.connections).toBe(0);
      const silentAt = Date.now();
      first.partition();
      await until(() => answers.some((a) => a.sent > silentAt && a.status === 201), PROMISE_MS + MARGIN_MS + 10_000, 'no 2xx after the first host went silent');
      const back = answers.filter((a) => a.sent > silentAt && a.status === 201).sort((a, b) => a.answered - b.answered)[0]!;
      expect(back.answered - silentAt).toBeLessThan(PROMISE_MS + MARGIN_MS);
      // Those in flight when it went silent: cut when it was left (503), not after the query timeout.
      running = false;
      await Promise.all(clients);
      const inFlight = answers.filter((a) => a.sent <= silentAt && a.answered > silentAt);
      expect(inFlight.length).toBeGreaterThan(0);
      for (const a of inFlight) expect(a.answered - silentAt).toBeLessThan(Math.min(PROMISE_MS + MARGIN_MS, QUERY_TIMEOUT_MS));
      expect(second.connections).toBeGreaterThan(0);
      const lines = s.service.lines();
      expect(lines.some((l) => l.msg === 'database: the chosen host went silent; leaving it')).toBe(true);
      expect(lines.filter((l) => l.msg === 'database: connecting to this host from now on').map((l) => l.host)).toContain(`127.0.0.1:${second.port}`);
      // Nothing answered 500, and every 503 said when to come back.
      expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    } finally {
      running = false;
      await Promise.all(clients);
    }
  }, 180_000);
});
