import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdjustableClock, systemClock } from './clock.ts';

const T0 = new Date('2025-03-10T12:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it('reads the system time', () => {
    vi.useFakeTimers({ now: T0 });
    expect(systemClock.now().toISOString()).toBe(T0.toISOString());
  });
});

describe('AdjustableClock (frozen)', () => {
  it('stays at its start while real time passes', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const clock = new AdjustableClock({ start: T0, frozen: true });
    vi.advanceTimersByTime(60_000);
    expect(clock.now().toISOString()).toBe('2025-03-10T12:00:00.000Z');
  });

  it.each<[number, string]>([
    [0, '2025-03-10T12:00:00.000Z'],
    [1, '2025-03-10T12:00:01.000Z'],
    [0.25, '2025-03-10T12:00:00.250Z'],
    [86_400, '2025-03-11T12:00:00.000Z'],
  ])('advance(%s) moves it to %s', (seconds, expected) => {
    const clock = new AdjustableClock({ start: T0, frozen: true });
    clock.advance(seconds);
    expect(clock.now().toISOString()).toBe(expected);
  });

  it.each([-1, NaN, Infinity])('advance(%s) is refused', (seconds) => {
    const clock = new AdjustableClock({ start: T0, frozen: true });
    expect(() => clock.advance(seconds)).toThrow(RangeError);
  });

  it('set() jumps in either direction', () => {
    const clock = new AdjustableClock({ start: T0, frozen: true });
    clock.set(new Date('2020-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });

  it('hands out copies, so mutating one does not move the clock', () => {
    const clock = new AdjustableClock({ start: T0, frozen: true });
    clock.now().setUTCFullYear(1999);
    expect(clock.now().toISOString()).toBe(T0.toISOString());
  });

  it('does not keep a reference to the start date', () => {
    const start = new Date(T0);
    const clock = new AdjustableClock({ start, frozen: true });
    start.setUTCFullYear(1999);
    expect(clock.now().toISOString()).toBe(T0.toISOString());
  });

  it('rejects an invalid start date', () => {
    expect(() => new AdjustableClock({ start: new Date('nope'), frozen: true })).toThrow(RangeError);
  });
});

describe('AdjustableClock (running)', () => {
  it('defaults to not frozen, at the system time', () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new AdjustableClock();
    expect(clock.frozen).toBe(false);
    vi.advanceTimersByTime(5_000);
    expect(clock.now().toISOString()).toBe('2025-03-10T12:00:05.000Z');
  });

  it('keeps ticking from its start plus every advance', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const clock = new AdjustableClock({ start: T0 });
    vi.advanceTimersByTime(2_000);
    clock.advance(60);
    expect(clock.now().toISOString()).toBe('2025-03-10T12:01:02.000Z');
  });

  it('set() keeps ticking from the new time', () => {
    vi.useFakeTimers({ now: T0 });
    const clock = new AdjustableClock();
    clock.set(new Date('2026-06-01T00:00:00Z'));
    vi.advanceTimersByTime(1_000);
    expect(clock.now().toISOString()).toBe('2026-06-01T00:00:01.000Z');
  });
});
