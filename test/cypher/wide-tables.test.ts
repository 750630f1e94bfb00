import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dumpNamespaces } from '../support/dump';
import { startService, type TestService } from '../support/app';
import { uniquePrefix } from '../support/isolate';

/**
 * A wide table with column lineage projects on the test Neo4j's 1 GiB heap (716.8 MiB of
 * transaction memory): the run's report of 1,200 output fields, each from three input fields
 * (3,600 column-lineage pairs), is a sorted set union on OUTPUT_TO. Written as
 * `COLLECT { ... RETURN DISTINCT n ORDER BY n }` (before issue 28's XL run) that union cost memory
 * quadratic in the list, and this event failed with MemoryPoolOutOfMemoryError.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('wide tables', () => {
  it('an output of 1,200 fields with 3,600 column-lineage pairs projects, its report sorted and whole', async () => {
    const ns = uniquePrefix('wide');
    const fields = Array.from({ length: 1_200 }, (_, i) => `col_${String(i).padStart(4, '0')}`);
    const inputs = ['a', 'b', 'c'].map((t) => ({ namespace: ns, name: `src_${t}` }));
    const event = {
      eventType: 'COMPLETE',
      eventTime: '2024-06-01T00:00:00.000Z',
      producer: 'https://tributary.test/wide',
      run: { runId: '0a000000-0000-4000-8000-000000000001' },
      job: { namespace: ns, name: 'widen' },
      inputs,
      outputs: [
        {
          namespace: ns,
          name: 'wide_table',
          facets: {
            schema: { fields: fields.map((name) => ({ name, type: 'string' })) },
            columnLineage: {
              fields: Object.fromEntries(fields.map((f) => [f, { inputFields: inputs.map((i) => ({ ...i, field: f, transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] })) }])),
            },
          },
        },
      ],
    };
    const [outcome] = await svc.app.ingestor.ingest([{ raw: JSON.stringify(event), value: event }]);
    assert.equal(outcome!.ok, true, outcome!.ok ? '' : outcome!.error.message);
    const dump = await dumpNamespaces(svc.app, ns);
    const out = dump.rels.find((r) => r.type === 'OUTPUT_TO')!;
    const pairs = out.props.cllPairs as string[];
    assert.equal(pairs.length, 3_600);
    assert.deepEqual(pairs, [...pairs].sort());
    assert.deepEqual(out.props.cllFields, fields);
    assert.deepEqual(out.props.fields, fields);
    assert.equal(dump.rels.filter((r) => r.type === 'DERIVES').length, 3_600);
    const produces = dump.rels.find((r) => r.type === 'PRODUCES')!;
    assert.equal(produces.props.fieldsWithInputs, 1_200);
  });
});
