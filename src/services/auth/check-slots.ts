import { DomainError } from '../../domain/errors/domain-error.ts';

/**
 * The secret checks running at once on this instance, per failure key, so that a burst of wrong
 * secrets sent together gets at most the key's remaining budget checked: a check may start only
 * while the key's known failures plus the checks already running stay under its limit. A check that
 * proves right frees its slot without counting anything; one that proves wrong keeps its slot until
 * its failure is recorded, then frees it with the key's new failure times. A check that finds every
 * slot taken waits for one of the running checks to end (each is a hash, and for a wrong one a
 * statement): then either a slot is free (the running ones were right) or the key is over its limit
 * (they were wrong) and the attempt is refused like any other. So a right secret is never refused
 * for attempts that did not fail, and waits at most for the checks that were already running.
 *
 * Across instances the database decides (`record_auth_failure` admits at most the limit of failures);
 * these slots keep the checks themselves within the limit on each instance.
 */

export interface SlotKey {
  key: string;
  limit: number;
}

/** The failure times known for a key: epoch milliseconds, oldest first. */
export type FailureTimes = readonly number[];

interface Entry {
  /** Checks running now. */
  running: number;
  /** Attempts holding or waiting for a slot: the entry lives while there is one. */
  users: number;
  /** The newest failure times seen for the key (the store's answer with the most recent failures). */
  times: FailureTimes;
  /** Waiting attempts, woken whenever a check of this key ends. */
  waiters: Set<() => void>;
}

export type SlotAnswer = { refused: true; times: Map<string, FailureTimes> } | { refused: false; release: (learned?: Map<string, FailureTimes>) => void };

/** No check of the keys ended in time (they are stuck, e.g. recording into a database that stalls): 503. */
const slotWaitTimeout = (waitedMs: number) =>
  new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: 1 }, `No secret check could start within ${waitedMs} ms; retry shortly.`);

export function createCheckSlots(options: { now: () => number; windowMs: number; maxWaitMs: number }) {
  const entries = new Map<string, Entry>();
  const recent = (times: FailureTimes, now: number) => times.filter((t) => t > now - options.windowMs);

  /** Keeps the answer that knows the most failures still in the window (a later answer never knows fewer). */
  function learn(entry: Entry, times: FailureTimes | undefined, now: number) {
    if (!times) return;
    const known = recent(entry.times, now);
    const offered = recent(times, now);
    if (offered.length > known.length || (offered.length === known.length && (offered.at(-1) ?? 0) > (known.at(-1) ?? 0))) entry.times = offered;
  }

  function leave(key: string) {
    const entry = entries.get(key)!;
    entry.users -= 1;
    if (entry.users === 0) entries.delete(key);
  }

  function wake(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    for (const waiter of [...entry.waiters]) waiter();
  }

  /**
   * A slot on every key, or `refused` with the keys' failure times when one of them is over its limit.
   * `seen` holds the failure times the attempt's own look-up read.
   */
  async function enter(keys: readonly SlotKey[], seen: Map<string, FailureTimes>): Promise<SlotAnswer> {
    // The wait is bounded by progress: a check of these keys must end within maxWaitMs, however
    // many end before a slot is ours (a hundred right secrets at once each wait for the ones ahead).
    let progressAt = Date.now();
    for (const k of keys) {
      let entry = entries.get(k.key);
      if (!entry) entries.set(k.key, (entry = { running: 0, users: 0, times: [], waiters: new Set() }));
      entry.users += 1;
      learn(entry, seen.get(k.key), options.now());
    }
    let holding = false;
    try {
      for (;;) {
        const now = options.now();
        const state = keys.map((k) => ({ k, entry: entries.get(k.key)!, failures: recent(entries.get(k.key)!.times, now).length }));
        if (state.some((s) => s.failures >= s.k.limit)) {
          return { refused: true, times: new Map(state.map((s) => [s.k.key, s.entry.times])) };
        }
        if (state.every((s) => s.failures + s.entry.running < s.k.limit)) {
          for (const s of state) s.entry.running += 1;
          holding = true;
          return { refused: false, release: (learned) => release(keys, learned) };
        }
        const left = options.maxWaitMs - (Date.now() - progressAt);
        if (left <= 0) throw slotWaitTimeout(options.maxWaitMs);
        const woken = await new Promise<boolean>((resolve) => {
          const done = (byCheck: boolean) => {
            clearTimeout(timer);
            for (const s of state) s.entry.waiters.delete(onCheckEnded);
            resolve(byCheck);
          };
          const onCheckEnded = () => done(true);
          const timer = setTimeout(() => done(false), left);
          for (const s of state) s.entry.waiters.add(onCheckEnded);
        });
        if (woken) progressAt = Date.now();
      }
    } finally {
      if (!holding) for (const k of keys) leave(k.key);
    }
  }

  function release(keys: readonly SlotKey[], learned?: Map<string, FailureTimes>) {
    const now = options.now();
    for (const k of keys) {
      const entry = entries.get(k.key)!;
      learn(entry, learned?.get(k.key), now);
      entry.running -= 1;
    }
    for (const k of keys) {
      wake(k.key);
      leave(k.key);
    }
  }

  return { enter, /** Keys with checks running or waiting (tests: nothing is left behind). */ size: () => entries.size };
}

export type CheckSlots = ReturnType<typeof createCheckSlots>;
