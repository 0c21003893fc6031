import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { metricsExposition } from './metrics-cluster.ts';

/** Prometheus metrics of one service instance (a registry per instance, so tests do not share one). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    /** What GET /metrics answers: this process, or with WORKERS > 1 every worker together. */
    exposition: metricsExposition(registry),
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route and status code',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency, by method and route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    /** 401, 403 and 429 answers: counted here instead of a log line each (they are logged at debug). */
    httpRefusals: new Counter({
      name: 'http_refusals_total',
      help: 'Requests refused for authentication, authorization or rate limits (401, 403, 429), by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'Jobs run, by kind and outcome (done, retry, failed)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    /** One HTTP exchange with the PIX provider (the token call included), by its outcome. */
    providerCallDuration: providerCallHistogram(registry),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Job run time, by kind',
      labelNames: ['kind'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The outcomes of a provider exchange: its answer's class, or `error` (no answer: timeout, connection). */
export const PROVIDER_CALL_OUTCOMES = ['2xx', '4xx', '5xx', 'error'] as const;

function providerCallHistogram(registry: Registry) {
  const histogram = new Histogram({
    name: 'provider_call_duration_seconds',
    help: 'PIX provider HTTP exchanges (each attempt, the token call included): time to the answer or the failure, by outcome (2xx, 4xx, 5xx, error)',
    labelNames: ['outcome'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Every outcome has its series from the start (0), so a rate() or an alert never meets a missing one.
  for (const outcome of PROVIDER_CALL_OUTCOMES) histogram.zero({ outcome });
  return histogram;
}


/**
 * Figures read at scrape time from the parts that keep them: the database pool (PostgreSQL) and the
 * payout batcher (group commit).
 */
export function observeRuntime(
  metrics: Metrics,
  sources: {
    pool?: (() => { total: number; idle: number; waiting: number }) | undefined;
    batcher?: () => { batches: number; items: number; retries: number; fallbacks: number } | undefined;
  },
) {
  const { pool, batcher } = sources;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections: total open, idle, and callers waiting for one',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      collect() {
        const now = pool();
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, now[state]);
      },
    });
  }
  if (batcher) {
    new Gauge({
      name: 'payout_batcher_count',
      help: 'Payout group commit since start: batches run, payouts they carried, batches rerun after a deadlock, batches run item by item after a failure',
      labelNames: ['what'] as const,
      registers: [metrics.registry],
      collect() {
        const now = batcher();
        if (!now) return;
        for (const what of ['batches', 'items', 'retries', 'fallbacks'] as const) this.set({ what }, now[what]);
      },
    });
  }
}
