import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { startService, type TestService } from '../support/app';
import { rng, shuffle } from '../support/generate';
import { isolatedRunId, uniquePrefix } from '../support/isolate';
import { summarizeNamespaces } from '../../src/ingest/namespaces';
import { createLogger } from '../../src/log';

/**
 * The Namespace summaries (ingest/merge-namespaces.cypher), which Marquez's namespace list reads
 * instead of every job and dataset: each namespace's firstSeen and lastSeen equal the earliest and
 * latest time of an event naming a job, dataset, parent or root job in it, whatever the delivery
 * order; the once-per-graph summary of a graph projected before them (summarize-namespaces.cypher)
 * gives the same; and /api/v1/namespaces answers them.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const items = (events: unknown[]) => events.map((value) => ({ raw: JSON.stringify(value), value }));

/** Jobs in <p>-jobs read and write datasets in <p>-src and <p>-out; parent and root jobs (named only by facets) in <p>-dag and <p>-root. */
function stream(p: string, seed: number): Record<string, unknown>[] {
  const random = rng(seed);
  const base = Date.UTC(2024, 5, 1);
  const events: Record<string, unknown>[] = [];
  for (let k = 0; k < 24; k++) {
    const runId = isolatedRunId(p, `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`);
    const parent = {
      run: { runId: isolatedRunId(p, `22222222-0000-4000-8000-${String(k).padStart(12, '0')}`) },
      job: { namespace: `${p}-dag`, name: 'dag' },
      ...(k % 3 === 0 ? { root: { run: { runId: isolatedRunId(p, `33333333-0000-4000-8000-${String(k).padStart(12, '0')}`) }, job: { namespace: `${p}-root`, name: 'root' } } } : {}),
    };
    for (const eventType of ['START', 'COMPLETE']) {
      events.push({
        eventType,
        eventTime: new Date(base + Math.floor(random() * 30 * 86_400_000)).toISOString(),
        producer: 'https://tributary.test/namespaces',
        run: { runId, facets: k % 2 === 0 ? { parent } : {} },
        job: { namespace: `${p}-jobs`, name: `job_${k % 5}` },
        inputs: [{ namespace: `${p}-src`, name: `t_${k % 4}` }],
        outputs: eventType === 'COMPLETE' ? [{ namespace: `${p}-out`, name: `o_${k % 3}` }] : [],
      });
    }
  }
  return events;
}

/** firstSeen/lastSeen per namespace as defined: the events' times, over every namespace each event names. */
function expected(events: Record<string, any>[]): Map<string, { firstSeen: string; lastSeen: string }> {
  const out = new Map<string, { firstSeen: string; lastSeen: string }>();
  for (const e of events) {
    const t = new Date(e.eventTime).toISOString();
    const named = [e.job.namespace, ...e.inputs.map((d: any) => d.namespace), ...e.outputs.map((d: any) => d.namespace)];
    const parent = e.run.facets?.parent;
    if (parent) named.push(parent.job.namespace, ...(parent.root ? [parent.root.job.namespace] : []));
    for (const ns of named) {
      const s = out.get(ns);
      if (!s) out.set(ns, { firstSeen: t, lastSeen: t });
      else {
        if (t < s.firstSeen) s.firstSeen = t;
        if (t > s.lastSeen) s.lastSeen = t;
      }
    }
  }
  return out;
}

async function summaries(prefix: string): Promise<Map<string, { firstSeen: string; lastSeen: string }>> {
  const r = await svc.app.driver.executeQuery('MATCH (n:Namespace) WHERE n.name STARTS WITH $prefix RETURN n.name AS name, n.firstSeen AS f, n.lastSeen AS l', { prefix }, { routing: neo4j.routing.READ });
  return new Map(r.records.map((x) => [x.get('name') as string, { firstSeen: new Date(x.get('f')).toISOString(), lastSeen: new Date(x.get('l')).toISOString() }]));
}

const sorted = (m: Map<string, unknown>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

describe('namespace summaries', () => {
  it('equal the events they were named in, in order, one by one shuffled and in random batches', async () => {
    const random = rng(2_028);
    for (const delivery of ['inorder', 'shuffled', 'batches']) {
      const p = uniquePrefix(`nssum-${delivery}`);
      const events = stream(p, 11);
      if (delivery === 'inorder') await svc.app.ingestor.ingest(items(events));
      else if (delivery === 'shuffled') for (const e of shuffle(events, random)) await svc.app.ingestor.ingest(items([e]));
      else {
        const mixed = shuffle([...events, ...events], random);
        for (let i = 0; i < mixed.length; ) {
          const size = 1 + Math.floor(random() * 7);
          await svc.app.ingestor.ingest(items(mixed.slice(i, i + size)));
          i += size;
        }
      }
      const want = expected(events);
      assert.equal(want.size, 5, 'jobs, src, out, dag and root namespaces');
      assert.deepEqual(sorted(await summaries(p)), sorted(want), delivery);
    }
  });

  it('a graph projected before them gets the same summaries once, and the Marquez API answers them', async () => {
    const p = uniquePrefix('nssum-backfill');
    const events = stream(p, 12);
    await svc.app.ingestor.ingest(items(events));
    const projected = await summaries(p);
    await svc.app.driver.executeQuery('MATCH (n:Namespace) WHERE n.name STARTS WITH $p DETACH DELETE n', { p });
    await svc.app.driver.executeQuery("MATCH (m:TributaryState {id: 'namespace-summary'}) DELETE m");
    assert.equal((await summaries(p)).size, 0);
    assert.ok((await summarizeNamespaces(svc.app.executor, createLogger('error'))) >= 5, 'the summary ran');
    assert.deepEqual(sorted(await summaries(p)), sorted(projected));
    assert.equal(await summarizeNamespaces(svc.app.executor, createLogger('error')), 0, 'once per graph');
    const res = await fetch(`${svc.baseUrl}/api/v1/namespaces/${encodeURIComponent(`${p}-dag`)}`);
    const body = (await res.json()) as { name: string; createdAt: string; updatedAt: string };
    const dag = projected.get(`${p}-dag`)!;
    assert.deepEqual([body.name, new Date(body.createdAt).toISOString(), new Date(body.updatedAt).toISOString()], [`${p}-dag`, dag.firstSeen, dag.lastSeen]);
  });
});
