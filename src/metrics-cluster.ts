import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * GET /metrics with WORKERS > 1: the connection reaches one worker, but a scrape must see the whole
 * service, so that worker asks the primary, which gathers every worker's registry (prom-client's
 * AggregatorRegistry: counters summed, gauges per their aggregator) and answers the text.
 */
type MetricsMessage = { pix: 'metrics'; id: number } | { pix: 'metrics-done'; id: number; text?: string; error?: string };

const isMetricsMessage = (message: unknown): message is MetricsMessage =>
  typeof message === 'object' && message !== null && ['metrics', 'metrics-done'].includes(String((message as { pix?: unknown }).pix));

/** How long a worker waits for the primary's gathered metrics (prom-client gives up on a worker after 5 s). */
const GATHER_MS = 6_000;

/** The primary's side: answers a worker's request with every worker's metrics together. */
export function serveClusterMetrics(): (from: Worker, message: unknown) => void {
  const aggregator = new AggregatorRegistry();
  return (from, message) => {
    if (!isMetricsMessage(message) || message.pix !== 'metrics') return;
    aggregator.clusterMetrics().then(
      (text) => from.isConnected() && from.send({ pix: 'metrics-done', id: message.id, text } satisfies MetricsMessage),
      (error: Error) => from.isConnected() && from.send({ pix: 'metrics-done', id: message.id, error: error.message } satisfies MetricsMessage),
    );
  };
}

/**
 * The exposition GET /metrics answers: this process's registry, or in a worker the whole cluster's
 * (the worker's registry is handed to prom-client, which answers the primary's gathering).
 */
export function metricsExposition(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker || !process.send) return () => registry.metrics();
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // adds the worker's listener for the primary's gathering requests
  const waiting = new Map<number, (answer: { text?: string; error?: string }) => void>();
  let next = 0;
  process.on('message', (message: unknown) => {
    if (isMetricsMessage(message) && message.pix === 'metrics-done') waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => finish({ error: `no answer from the primary within ${GATHER_MS} ms` }), GATHER_MS);
      const finish = (answer: { text?: string; error?: string }) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`gathering the workers' metrics failed: ${answer.error}`));
      };
      waiting.set(id, finish);
      process.send!({ pix: 'metrics', id } satisfies MetricsMessage);
    });
}
