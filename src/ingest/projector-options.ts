import { IMMEDIATE, type Turns } from '../cpu-turns';

/** The projector's limits and timings (projector.ts); config.ts sets them from the environment. */

export interface ProjectorOptions {
  /** Events per projection transaction, at most. */
  batch: number;
  /**
   * JSON text (characters) per projection transaction, at most; an event larger than this is a
   * transaction of its own. The message to Neo4j is about two to three times this (the text, the
   * facets as JSON, the plan).
   */
  batchBytes: number;
  /** Validated events held in memory; beyond it the projector reads them back from the spool. */
  maxQueued: number;
  /** Estimated heap bytes (batching.ts memoryOf) of the validated events held in memory, at most; beyond, as `maxQueued`. */
  maxQueuedBytes: number;
  /** How long the database may take to answer the probe after a failed batch (probe.ts) before it counts as down. */
  probeTimeoutMs: number;
  /** How often an idle projector looks again (legacy Pending events, the spool). */
  idleMs: number;
  /**
   * How long the first event of a batch smaller than `batch` may wait for others, unless a client
   * waits for its projection: fewer, larger transactions leave more of the CPU to acknowledging.
   */
  lingerMs: number;
  /** Where reading back and planning ahead run (src/cpu-turns.ts): the service's turns, behind reads. */
  turns: Turns;
}

export const DEFAULT_PROJECTOR: ProjectorOptions = {
  batch: 500,
  batchBytes: 16 * 2 ** 20,
  maxQueued: 5_000,
  maxQueuedBytes: 256 * 2 ** 20,
  probeTimeoutMs: 5_000,
  idleMs: 1_000,
  lingerMs: 500,
  turns: IMMEDIATE,
};
