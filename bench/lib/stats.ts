/** Small figures helpers shared by the benchmarks: percentiles, medians, ratios, load average. */
import { loadavg } from 'node:os';

/** The p-th percentile of an ascending array (nearest rank), NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/** The machine's load average (1, 5, 15 min), as printed next to every figure. */
export function loadAverage(): [number, number, number] {
  const [a = NaN, b = NaN, c = NaN] = loadavg();
  return [a, b, c];
}

export const formatLoad = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join('/');

/** A figure with sensible precision: 1234 -> "1234", 12.34 -> "12.3", 1.234 -> "1.23". */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : value.toFixed(2);
}

export const ratio = (service: number, reference: number) => (reference > 0 && Number.isFinite(service) ? service / reference : NaN);

/** Status counts in a stable order, e.g. "201:1234 503:2". */
export const formatStatuses = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}:${n}`)
    .join(' ') || 'none';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
