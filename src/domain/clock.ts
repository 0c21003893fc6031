/**
 * The service's one source of time. Everything else in domain takes time as a parameter, so the
 * sandbox can move the clock (`/sandbox/clock/advance`) and tests can freeze it.
 * This is the only file in domain allowed to read the system time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

export interface AdjustableClockOptions {
  /** Where the clock starts; defaults to the system time at construction. */
  start?: Date;
  /** Frozen clocks only move through advance()/set(), which makes tests deterministic. */
  frozen?: boolean;
}

function millisOf(date: Date): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid date');
  return ms;
}

/**
 * Not frozen: system time plus an offset, so it keeps ticking after an advance (the sandbox).
 * Frozen: stands still at its own time (tests).
 */
export class AdjustableClock implements Clock {
  readonly frozen: boolean;
  // Frozen: the current time. Running: the offset added to the system time.
  #value: number;

  constructor(options: AdjustableClockOptions = {}) {
    this.frozen = options.frozen ?? false;
    const start = options.start === undefined ? Date.now() : millisOf(options.start);
    this.#value = this.frozen ? start : start - Date.now();
  }

  now(): Date {
    // A fresh Date each call: callers may mutate what they get without moving the clock.
    return new Date(this.frozen ? this.#value : Date.now() + this.#value);
  }

  /** Moves forward only: going back would re-open expiries and deadlines that already fired. */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(`advance() takes a non-negative number of seconds: ${seconds}`);
    }
    this.#value += Math.round(seconds * 1000);
  }

  /** Jumps to any instant (either direction); meant for test set-up. */
  set(date: Date): void {
    const ms = millisOf(date);
    this.#value = this.frozen ? ms : ms - Date.now();
  }
}
