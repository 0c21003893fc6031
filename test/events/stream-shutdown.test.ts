import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHarness } from '../harness.ts';
import { openSse } from './sse-client.ts';

async function listening() {
  const h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const account = await h.createAccount();
  const token = await h.tokenFor(account.id, ['webhook:read']);
  return { h, base, account, auth: { authorization: `Bearer ${token}` } };
}

describe('event streams at shutdown', () => {
  it('end cleanly once the service stops accepting connections (drain), after the events already due', async () => {
    const { h, base, account, auth } = await listening();
    try {
      const stream = await openSse(`${base}/api/events/stream`, auth);
      await stream.waitForComment(/stream open/);
      await h.deposit(account.id, 1);
      await stream.waitForEvents(1);
      h.c.drain.startClosing();
      await stream.waitForEnd();
      expect(stream.events).toHaveLength(1);
      // The response ended as a whole (the last frame complete), not cut.
      expect(stream.raw.endsWith('\n\n')).toBe(true);
      expect(h.c.eventStreams.openCount).toBe(0);
      // A new stream on a closing instance: 503, so the client goes elsewhere.
      const refused = await h.api('GET', '/api/events/stream', auth.authorization.slice(7));
      expect(refused.statusCode).toBe(503);
    } finally {
      await h.close();
    }
  });

  it('do not hold the app open: closing the app ends them', async () => {
    const { h, base, auth } = await listening();
    const stream = await openSse(`${base}/api/events/stream`, auth);
    await stream.waitForComment(/stream open/);
    await h.close();
    await stream.waitForEnd();
    expect(stream.ended).toBe(true);
  });
});
