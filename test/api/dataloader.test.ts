import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Query } from '../../src/graph/queries';
import { datasetId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

/**
 * No N+1: resolving nested fields of many lineage nodes costs the same number of database reads
 * whether the graph has 3 or 30 nodes (DataLoaders batch per request). The executor's `read` is
 * wrapped to count calls (but the background projector's); every query still runs on the real Neo4j.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

async function readsFor(width: number): Promise<number> {
  const ns = uniquePrefix(`n1-${width}`);
  const events = Array.from({ length: width }, (_, i) =>
    runEvent(ns, { job: `j${i}`, inputs: ['hub'], outputs: [`out${i}`], datasetFacets: { [`out${i}`]: { schema: { fields: [{ name: 'a' }, { name: 'b' }] } } } }),
  );
  for (const e of events) assert.equal((await svc.postEvent(e)).status, 201);
  const executor = svc.app.executor;
  const original = executor.read.bind(executor);
  let calls = 0;
  // The background projector's own reads (its sweep every 2 s) are not the request's.
  const projectors: string[] = [Query.PendingEvents, Query.StillPending];
  executor.read = ((...args: Parameters<typeof original>) => {
    if (!projectors.includes(args[0])) calls++;
    return original(...args);
  }) as typeof executor.read;
  try {
    const res = await svc.graphql(
      `query($id: ID!) { lineage(nodeId: $id, direction: DOWNSTREAM, depth: 2) {
        nodes { dataset { name fields { name } producers { name latestRun { state } } } job { name outputs { name } } } } }`,
      { id: datasetId(ns, 'hub') },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(res.data.lineage.nodes.length, 1 + 2 * width);
  } finally {
    executor.read = original;
  }
  return calls;
}

describe('DataLoader batching', () => {
  it('issues the same number of reads for 3 and for 30 nodes per level', async () => {
    const small = await readsFor(3);
    const large = await readsFor(30);
    assert.equal(large, small);
    assert.ok(small <= 10, `reads: ${small}`);
  });
});
