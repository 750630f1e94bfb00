import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FACET_SCHEMAS, SIZES, stream } from '../../bench/generator';
import { corpusRoot } from '../support/corpus';

/**
 * The benchmark streams are events a real producer could send: a sample of every size validates
 * against the spec's JSON Schemas in ../shared/openlineage-corpus/spec (the core 2-0-2 schema, and
 * each facet against its own schema), and a field keeps one type across all events.
 */
const spec = path.join(corpusRoot, 'spec');
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema(JSON.parse(fs.readFileSync(path.join(spec, 'OpenLineage.json'), 'utf8')));
for (const file of fs.readdirSync(path.join(spec, 'facets'))) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(spec, 'facets', file), 'utf8')));
const runEvent = ajv.getSchema('https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent')!;
/** One validator per facet key: the facet schema file's own object (`{schema: {...}}` for SchemaDatasetFacet). */
const facetValidators = Object.fromEntries(
  Object.entries(FACET_SCHEMAS).map(([key, url]) => [key, ajv.getSchema(url.slice(0, url.indexOf('#')))!]),
);

function facetObjects(event: any): Record<string, unknown>[] {
  return [event.run?.facets, event.job?.facets, ...[...event.inputs, ...event.outputs].map((d: any) => d.facets)].filter(Boolean);
}

describe('benchmark generator', () => {
  for (const size of Object.keys(SIZES)) {
    // XL's shape on 400 of its 25,000 jobs (its whole stream is 4.7 GB of JSON).
    const opts = size === 'XL' ? { ...SIZES.XL!, jobs: 400 } : SIZES[size]!;
    it(`size ${size}: every 97th event is valid against the spec's schemas; each field keeps one type`, () => {
      const types = new Map<string, string>();
      let seen = 0;
      let checked = 0;
      let withoutFacets = 0;
      for (const event of stream({ ...opts, seed: 42 }) as Iterable<any>) {
        if (event.outputs.some((d: any) => !d.facets)) withoutFacets++;
        // Types of every event on S and M; of the sampled ones on L (2.4 million fields).
        for (const d of size === 'L' && seen % 97 !== 0 ? [] : event.outputs) {
          for (const f of d.facets?.schema?.fields ?? []) {
            const key = `${d.namespace}|${d.name}|${f.name}`;
            assert.equal(types.get(key) ?? f.type, f.type, key);
            types.set(key, f.type);
          }
        }
        if (seen++ % 97 !== 0) continue;
        checked++;
        assert.ok(runEvent(event), `event ${seen - 1}: ${JSON.stringify(runEvent.errors)}`);
        for (const facets of facetObjects(event)) {
          for (const [key, value] of Object.entries(facets)) {
            const validate = facetValidators[key];
            assert.ok(validate, `facet ${key} has no schema in FACET_SCHEMAS`);
            assert.ok(validate({ [key]: value }), `event ${seen - 1}, facet ${key}: ${JSON.stringify(validate.errors)}`);
          }
        }
      }
      assert.equal(seen, opts.jobs * opts.runsPerJob * 2);
      assert.ok(checked > seen / 100);
      // Only the runs past facetRuns name their outputs without facets (XL: 23 of every 24).
      const light = opts.facetRuns === undefined ? 0 : opts.jobs * (opts.runsPerJob - opts.facetRuns) * 2;
      assert.equal(withoutFacets, light);
    });
  }

  it('a facet without _producer fails the same validation (the check can fail)', () => {
    const event = stream({ ...SIZES.S!, seed: 1 }).next().value as any;
    delete event.job.facets.jobType._producer;
    assert.equal(runEvent(event), false);
  });
});
