import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertSameGraph, dumpNamespaces, normalisedDump, type GraphDump } from '../support/dump';
import { startService, type TestService } from '../support/app';
import { rng, shuffle } from '../support/generate';
import { isolatedRunId, uniquePrefix } from '../support/isolate';

/**
 * The derived figures that projection maintains incrementally (issue 28: refresh-output-coverage
 * and merge-job-versions touch only what a batch changes) equal their definitions recomputed from
 * the whole graph, whatever the arrival order: the deciding run of every job → output edge (the
 * latest run by ioFrom, then id, that reported column lineage into the output or completed), the
 * fieldsWithInputs it implies, and each job version's runs, firstSeen and lastSeen. The stream is
 * built to defeat a naive incremental rule: a run's START, arriving late, moves its ioFrom behind
 * older runs; a FAIL after a COMPLETE takes a deciding run out; runs change their inputs, so runs
 * move between versions; two jobs write the same dataset.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const items = (events: unknown[]) => events.map((value) => ({ raw: JSON.stringify(value), value }));

function history(ns: string, seed: number, runs = 14): Record<string, unknown>[] {
  const random = rng(seed);
  const base = Date.UTC(2024, 0, 1);
  const at = (min: number) => new Date(base + min * 60_000).toISOString();
  const ds = (name: string, facets?: Record<string, unknown>) => ({ namespace: ns, name, ...(facets ? { facets } : {}) });
  const events: Record<string, unknown>[] = [];
  for (const job of ['etl', 'backfill']) {
    for (let k = 0; k < runs; k++) {
      const runId = isolatedRunId(ns, `${job === 'etl' ? '00000000' : '11111111'}-0000-4000-8000-${String(k).padStart(12, '0')}`);
      const t = k * 10 + (job === 'etl' ? 0 : 3);
      const inputs = random() < 0.3 ? ['src', 'lookup'] : ['src'];
      const cll = random();
      const columnLineage =
        cll < 0.25
          ? undefined
          : cll < 0.5
            ? { fields: { a: { inputFields: [{ namespace: ns, name: 'src', field: 'a' }] } } }
            : cll < 0.75
              ? { fields: { a: { inputFields: [{ namespace: ns, name: 'src', field: 'a' }] }, b: { inputFields: [{ namespace: ns, name: 'src', field: 'b' }] } } }
              : { fields: {}, dataset: [{ namespace: ns, name: 'src', field: 'id' }] };
      const schema = random() < 0.8 ? { fields: ['a', 'b', 'c'].map((name) => ({ name, type: 'string' })) } : undefined;
      const facets = { ...(schema ? { schema } : {}), ...(columnLineage ? { columnLineage } : {}) };
      const ev = (eventType: string, min: number, io: { inputs?: string[]; outputs?: boolean }) => ({
        eventType,
        eventTime: at(min),
        producer: 'https://tributary.test/incremental',
        run: { runId },
        job: { namespace: ns, name: job },
        inputs: (io.inputs ?? []).map((n) => ds(n)),
        outputs: io.outputs ? [ds('out', Object.keys(facets).length > 0 ? facets : undefined)] : [],
      });
      // START up to 35 minutes before the run's end: often before older runs' ends.
      if (random() < 0.85) events.push(ev('START', t - Math.floor(random() * 35), { inputs }));
      const end = random();
      if (end < 0.15) events.push(ev('RUNNING', t + 5, { inputs, outputs: true }));
      else events.push(ev('COMPLETE', t + 5, { inputs, outputs: true }));
      if (end >= 0.15 && end < 0.3) events.push(ev('FAIL', t + 6, {}));
    }
  }
  return events;
}

type Node = { labels: string[]; props: Record<string, any> };

/** The figures as defined, recomputed from a whole dump; fails on the first edge or version that differs. */
function assertFiguresAsDefined(dump: GraphDump, label: string): void {
  const byId = new Map<string, Node>(dump.nodes.map((n) => [String(n.props.id), n]));
  const rels = (type: string) => dump.rels.filter((r) => r.type === type);
  const runOf = new Set(rels('RUN_OF').map((r) => `${r.from}>${r.to}`));
  const outputs = rels('OUTPUT_TO');
  let decided = 0;
  for (const p of rels('PRODUCES')) {
    const qualifying = outputs
      .filter((o) => o.to === p.to && runOf.has(`${o.from}>${p.from}`))
      .filter((o) => o.props.cllWhole === true || ((o.props.cllFields as string[] | null) ?? []).length > 0 || byId.get(o.from)?.props.state === 'COMPLETE')
      .map((o) => ({ o, run: byId.get(o.from)!.props }));
    qualifying.sort((x, y) => (x.run.ioFrom === y.run.ioFrom ? (x.run.id < y.run.id ? 1 : -1) : x.run.ioFrom < y.run.ioFrom ? 1 : -1));
    const best = qualifying[0];
    assert.equal(p.props.decidedRunId, best?.run.id ?? '', `${label}: deciding run of ${p.from} → ${p.to}`);
    if (best) decided++;
    const o = best?.o.props;
    const expected = !o || o.fields == null ? p.props.fieldsWithInputsEver : o.cllWhole ? p.props.outputFields : (o.cllFields as string[]).length;
    assert.equal(p.props.fieldsWithInputs, expected, `${label}: fieldsWithInputs of ${p.from} → ${p.to}`);
    const fields = rels('HAS_FIELD').filter((h) => h.from === p.to).map((h) => h.to);
    assert.equal(p.props.outputFields, new Set(fields.map((f) => byId.get(f)!.props.name)).size, `${label}: outputFields`);
    const influenced = rels('INFLUENCES').some((i) => i.to === p.to && i.props.jobId === p.from);
    const derived = new Set(rels('DERIVES').filter((c) => fields.includes(c.to) && c.props.jobId === p.from).map((c) => byId.get(c.to)!.props.name));
    assert.equal(p.props.fieldsWithInputsEver, influenced ? p.props.outputFields : derived.size, `${label}: fieldsWithInputsEver`);
  }
  assert.ok(decided >= 2, `${label}: some edges have a deciding run`);
  const versions = dump.nodes.filter((n) => n.labels.includes('JobVersion'));
  assert.ok(versions.length >= 2, `${label}: several versions`);
  for (const v of versions) {
    const runs = rels('OF_VERSION').filter((r) => r.to === v.props.id).map((r) => byId.get(r.from)!.props);
    assert.equal(v.props.runs, runs.length, `${label}: runs of ${v.props.id}`);
    assert.equal(v.props.firstSeen, runs.map((r) => r.firstSeen).sort()[0], `${label}: firstSeen of ${v.props.id}`);
    assert.equal(v.props.lastSeen, runs.map((r) => r.lastSeen).sort().at(-1), `${label}: lastSeen of ${v.props.id}`);
  }
}

describe('incrementally maintained figures', () => {
  for (const seed of [5, 6, 7]) {
    it(`seed ${seed}: deciding runs, coverage and job versions equal their definitions in every delivery order`, async () => {
      const random = rng(seed * 104_729);
      const deliveries = ['inorder', 'onebyone', 'reversed', 'batches'].map((l) => uniquePrefix(`incr${seed}-${l}`));
      const [inOrder, oneByOne, reversed, batches] = deliveries.map((p) => history(p, seed)) as [any[], any[], any[], any[]];
      await svc.app.ingestor.ingest(items(inOrder));
      for (const e of shuffle(oneByOne, random)) await svc.app.ingestor.ingest(items([e]));
      for (const e of [...reversed].reverse()) await svc.app.ingestor.ingest(items([e]));
      const mixed = shuffle([...batches, ...batches], random);
      for (let i = 0; i < mixed.length; ) {
        const size = 1 + Math.floor(random() * 6);
        await svc.app.ingestor.ingest(items(mixed.slice(i, i + size)));
        i += size;
      }
      const dumps = await Promise.all(deliveries.map((p) => dumpNamespaces(svc.app, p)));
      dumps.forEach((d, i) => assertFiguresAsDefined(d, deliveries[i]!));
      const lines = dumps.map((d, i) => normalisedDump(deliveries[i]!, d));
      for (let i = 1; i < lines.length; i++) assertSameGraph(lines[0]!, lines[i]!, deliveries[i]);
    });
  }
});
