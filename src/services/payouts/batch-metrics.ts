import { Gauge, type Registry } from 'prom-client';

export interface PayoutBatchStats {
  batches: number;
  items: number;
  retries: number;
  fallbacks: number;
  /** Items whose account another transaction held: left out of their batch, run alone. */
  busy: number;
}

/**
 * The payout group commit's counts since start, as `payout_group_commit{count="batches|items|retries|fallbacks|busy"}`:
 * how many payouts shared each transaction, how often a batch had to be rerun or fell back to one
 * transaction per payout, and how many payouts were left out of their batch because another
 * transaction held their account. Read at scrape time from the batcher (absent when batching is off).
 */
export function registerPayoutBatchMetrics(registry: Registry, stats: () => PayoutBatchStats | undefined): void {
  new Gauge({
    name: 'payout_group_commit',
    help: 'Payout group commit since start: batches, payouts in them, batch reruns, fallbacks to one transaction per payout, payouts of held accounts run alone',
    labelNames: ['count'] as const,
    registers: [registry],
    collect() {
      const s = stats();
      if (!s) return;
      for (const count of ['batches', 'items', 'retries', 'fallbacks', 'busy'] as const) this.set({ count }, s[count]);
    },
  });
}
