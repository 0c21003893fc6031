import type { Transaction as Trx } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Job } from './job.ts';
import type { StepHandler, StepRunner } from './steps.ts';

/** Runs inside the transaction that claimed the job: its effects and the job's removal commit together. */
export type JobHandler<P = any> = (trx: Trx<DB>, job: Job<P>) => Promise<void>;

/**
 * Runs many claimed jobs of one kind at once, in a savepoint of the claiming transaction, with
 * multi-row statements. If it throws, each job runs alone through the kind's handler instead, so
 * one bad job never holds back the others.
 */
export type BatchJobHandler<P = any> = (trx: Trx<DB>, jobs: Array<Job<P>>) => Promise<void>;

export interface JobKindOptions<P = any> {
  maxAttempts?: number;
  batch?: BatchJobHandler<P>;
  /**
   * Takes, once for every claimed job of the kind and before any of them runs, the row locks the
   * jobs will need, in the one lock order (docs/decisions.md "One lock order": e.g. all their
   * accounts by ascending id in one statement). Without it, jobs run one after the other in one
   * transaction would lock each job's rows in turn: out of order across jobs.
   */
  lock?: (trx: Trx<DB>, jobs: Array<Job<P>>) => Promise<void>;
  /** Seconds to wait before the given (1-based) retry. Default: 5 s doubling, at most 1 h. */
  backoff?: (attempt: number) => number;
}

export interface TransactionalKind {
  handler: JobHandler;
  options: JobKindOptions;
}

/**
 * The job kinds one scheduler knows: transactional kinds (a handler run in the claiming
 * transaction) and step kinds (steps.ts: call the outside, then record). A kind is one or the other.
 */
export function createJobKinds(steps: StepRunner) {
  const transactional = new Map<string, TransactionalKind>();

  function register<P>(kind: string, handler: JobHandler<P>, options: JobKindOptions<P> = {}) {
    if (transactional.has(kind) || steps.kinds().includes(kind)) throw new Error(`job kind ${kind} registered twice`);
    transactional.set(kind, { handler, options });
  }

  /** A kind whose jobs call the outside world: see StepHandler (never inside a transaction). */
  function registerStep<P, A>(kind: string, handler: StepHandler<P, A>) {
    if (transactional.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    steps.register(kind, handler);
  }

  return {
    register,
    registerStep,
    /** The transactional kind's handler and options; undefined for a step kind or an unknown one. */
    transactional: (kind: string) => transactional.get(kind),
    isTransactional: (kind: string) => transactional.has(kind),
    maxAttemptsOf: (kind: string) => transactional.get(kind)?.options.maxAttempts ?? steps.maxAttemptsOf(kind) ?? 10,
    /** Every kind, transactional first. */
    all: () => [...transactional.keys(), ...steps.kinds()],
  };
}

export type JobKinds = ReturnType<typeof createJobKinds>;
