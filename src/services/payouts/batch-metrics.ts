import { Gauge, type Registry } from 'prom-client';

export interface PayoutBatchStats {
  batches: number;
  items: number;
  retries: number;
  fallbacks: number;
}

/**
 * The payout group commit's counts since start, as `payout_group_commit{count="batches|items|retries|fallbacks"}`:
 * how many payouts shared each transaction, and how often a batch had to be rerun or fell back to
 * one transaction per payout. Read at scrape time from the batcher (absent when batching is off).
 */
export function registerPayoutBatchMetrics(registry: Registry, stats: () => PayoutBatchStats | undefined): void {
  new Gauge({
    name: 'payout_group_commit',
    help: 'Payout group commit since start: batches, payouts in them, batch reruns, fallbacks to one transaction per payout',
    labelNames: ['count'] as const,
    registers: [registry],
    collect() {
      const s = stats();
      if (!s) return;
      for (const count of ['batches', 'items', 'retries', 'fallbacks'] as const) this.set({ count }, s[count]);
    },
  });
}
