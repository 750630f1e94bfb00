import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { datasetId } from '../../src/ids';
import { startService } from '../support/app';
import { runEvent } from '../support/events';
import { uniquePrefix } from '../support/isolate';

describe('neo4j:// routing URIs', () => {
  it('ingest and lineage work through a routing driver (cluster and Aura URIs)', async () => {
    const bolt = loadConfig().neo4j!.uri;
    const routed = bolt.replace(/^bolt(\+s|\+ssc)?:/, 'neo4j$1:');
    assert.match(routed, /^neo4j/);
    const svc = await startService({ NEO4J_URI: routed });
    try {
      const ns = uniquePrefix('routing');
      assert.equal((await svc.postEvent(runEvent(ns, { job: 'j', inputs: ['a'], outputs: ['b'] }))).status, 201);
      const res = await svc.graphql(`query($id: ID!) { lineage(nodeId: $id, direction: UPSTREAM, depth: 2) { nodes { name } } }`, {
        id: datasetId(ns, 'b'),
      });
      assert.deepEqual(res.data.lineage.nodes.map((n: { name: string }) => n.name), ['b', 'j', 'a']);
    } finally {
      await svc.close();
    }
  });
});
