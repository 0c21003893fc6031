import { Counter, Histogram, type Registry } from 'prom-client';

/** Prometheus metrics of webhook delivery, registered on the instance's registry (GET /metrics). */
export function createWebhookMetrics(registry: Registry) {
  return {
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by the relay, by outcome (delivered, retry, failed, gone, cancelled)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook HTTP attempts',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

export type WebhookMetrics = ReturnType<typeof createWebhookMetrics>;
