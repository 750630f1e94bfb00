/**
 * The Node.js flags the service runs with: package.json's `start` and `bench`, the Dockerfile's
 * NODE_OPTIONS, and the benchmarks and tools that start it as a process
 * (test/unit/service-flags.test.ts keeps them equal).
 *
 * Semispaces of 64 MiB instead of V8's 16: under 16 clients posting M events one per request, the
 * scavenger took 17.6–20.1% of Node.js's CPU with 16 MiB and 13.9–15.6% with 64, and Node.js's CPU
 * per 1000 events fell from a median of 1.28 s to 1.12 (bench/README, *The 16 clients' path on M*).
 * The young generation can then hold up to about 150 MiB more.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
