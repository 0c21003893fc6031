import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { functionVersionsBeat } from '../db/function-versions-beat.ts';
import type { DB } from '../db/schema.ts';
import { dueWakeups } from '../jobs/due-wakeups.ts';
import type { Scheduler } from '../jobs/scheduler.ts';

export type BackgroundWorker = { start(): void; stop(): Promise<void> };

/**
 * The background loops, in start order; close stops them backwards. Each entry's place is its
 * shutdown order: what reads a pool or a client stops before that pool or client closes.
 */
export function backgroundWorkers(parts: {
  db: Kysely<DB>;
  database: Database;
  logger: Logger;
  scheduler: Scheduler;
  readReplica?: BackgroundWorker;
  /** The provider adapter's HTTP client, when the provider is the network. */
  providerClient?: { close(): Promise<void> };
  webhookTransport: { close(): Promise<void> };
  webhookRelay: BackgroundWorker & { wakeUp(): void; lookSoon(): void };
  eventStreams: { wakeUp(): void; closeAll(): Promise<void> };
  accessLease: BackgroundWorker;
  testClocks: { settled(): Promise<void>; invalidate(): void };
}): BackgroundWorker[] {
  const { providerClient, webhookTransport, eventStreams } = parts;
  return [
    // Stopped last (close runs this list backwards): its pool closes after everything that reads.
    ...(parts.readReplica ? [parts.readReplica] : []),
    // Stopped after the scheduler (close runs this list backwards): the provider's HTTP client.
    ...(providerClient ? [{ start() {}, stop: () => providerClient.close() }] : []),
    parts.scheduler,
    // Stopped after the relay (close runs this list backwards): closes the HTTP client's sockets.
    { start() {}, stop: () => webhookTransport.close() },
    parts.webhookRelay,
    // Started last, stopped first: NOTIFY of committed jobs and deliveries wakes the two pollers above.
    dueWakeups(parts.database, { scheduler: parts.scheduler, relay: parts.webhookRelay, logger: parts.logger, events: eventStreams, testClocks: parts.testClocks }),
    // Stopped first: the live event streams end (their clients reconnect with Last-Event-ID).
    { start() {}, stop: () => eventStreams.closeAll() },
    // Listens for credential/certificate changes and keeps this instance's lease (acknowledgements).
    parts.accessLease,
    // Marks this build's function versions as in use, so no other build's start drops them.
    functionVersionsBeat(parts.db, parts.logger),
    // Stopped first: a test clock's advance in progress ends (its jobs and webhooks) before the
    // scheduler and the relay stop, and its clock is left ready.
    { start() {}, stop: () => parts.testClocks.settled() },
  ];
}
