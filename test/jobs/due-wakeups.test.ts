import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Listen, ListenHandlers } from '../../src/db/notifications.ts';
import { dueWakeups, UNHEARD_POLL_MS } from '../../src/jobs/due-wakeups.ts';

/**
 * While nothing listens (the listening session is lost, or there is none behind a transaction
 * pooler), the scheduler and the relay are asked to look for due work every UNHEARD_POLL_MS; once
 * listening again, they are asked once (what was missed) and the polling stops.
 */
describe('due wake-ups without a listening session', () => {
  afterEach(() => vi.useRealTimers());

  function setup() {
    vi.useFakeTimers();
    let handlers: ListenHandlers | undefined;
    const listen: Listen = async (_names, h) => {
      handlers = h;
      h.listening?.(false);
      return async () => {};
    };
    const scheduler = { wakeAt: vi.fn(), lookSoon: vi.fn() };
    const relay = { wakeUp: vi.fn(), lookSoon: vi.fn() };
    const wakeups = dueWakeups({ listen }, { scheduler, relay, logger: pino({ level: 'silent' }) });
    return { wakeups, scheduler, relay, handlers: () => handlers! };
  }

  it('polls while not listening, stops once listening, and stops on stop', async () => {
    const { wakeups, scheduler, relay, handlers } = setup();
    wakeups.start();
    await vi.advanceTimersByTimeAsync(UNHEARD_POLL_MS * 4);
    expect(scheduler.lookSoon).toHaveBeenCalledTimes(4);
    expect(relay.lookSoon).toHaveBeenCalledTimes(4);

    handlers().listening?.(true);
    expect(scheduler.wakeAt).toHaveBeenCalledTimes(1);
    expect(relay.wakeUp).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(UNHEARD_POLL_MS * 4);
    expect(scheduler.lookSoon).toHaveBeenCalledTimes(4);

    handlers().listening?.(false);
    await vi.advanceTimersByTimeAsync(UNHEARD_POLL_MS * 2);
    expect(scheduler.lookSoon).toHaveBeenCalledTimes(6);
    await wakeups.stop();
    await vi.advanceTimersByTimeAsync(UNHEARD_POLL_MS * 4);
    expect(scheduler.lookSoon).toHaveBeenCalledTimes(6);
  });

  it('polls when listening cannot start at all', async () => {
    vi.useFakeTimers();
    const scheduler = { wakeAt: vi.fn(), lookSoon: vi.fn() };
    const relay = { wakeUp: vi.fn(), lookSoon: vi.fn() };
    const wakeups = dueWakeups({ listen: () => Promise.reject(new Error('no session')) }, { scheduler, relay, logger: pino({ level: 'silent' }) });
    wakeups.start();
    await vi.advanceTimersByTimeAsync(UNHEARD_POLL_MS * 3);
    expect(scheduler.lookSoon).toHaveBeenCalledTimes(3);
    await wakeups.stop();
  });
});
