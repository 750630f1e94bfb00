import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fieldId } from '../../src/ids';
import { startService, type TestService } from '../support/app';
import { isolate, uniquePrefix } from '../support/isolate';

/**
 * Events exactly as real producers send them (test/fixtures, captured with the scripts in
 * tools/capture), ingested over HTTP and asked for over GraphQL.
 */
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', name), 'utf8')) as Record<string, unknown>;

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('openlineage-python 1.54: column lineage with the deprecated transformation type', () => {
  it('keeps IDENTITY although each input field carries an empty transformations list', async () => {
    const ns = uniquePrefix('ol-python');
    const event = isolate(fixture('openlineage-python-1.54-column-lineage.json'), ns);
    assert.equal((await svc.postEvent(event)).status, 201);
    const total = fieldId(`${ns}postgres://db:5432`, 'public.orders_total', 'total');
    const res = await svc.graphql(
      `query($id: ID!) {
        lineage(nodeId: $id, direction: UPSTREAM, granularity: FIELD, depth: 1) { edges { fromId types } }
        trace(nodeId: $id, depth: 1) { hops { granularity types transformations } }
      }`,
      { id: total },
    );
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    const amount = fieldId(`${ns}postgres://db:5432`, 'public.orders', 'amount');
    assert.deepEqual(res.data.lineage.edges, [{ fromId: amount, types: ['IDENTITY'] }]);
    assert.deepEqual(res.data.trace.hops, [
      { granularity: 'FIELD', types: ['IDENTITY'], transformations: [{ type: 'IDENTITY', description: 'identical', deprecatedForm: true }] },
    ]);
  });
});
