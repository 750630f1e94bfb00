import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertSameGraph, dumpNamespaces, normalisedDump } from '../support/dump';
import { reproject } from '../../src/ingest/reproject';
import { startService, type TestService } from '../support/app';
import { generateEvents, rng, shuffle } from '../support/generate';
import { docsOf, isAccepted, manifest } from '../support/corpus';
import { isolate, uniquePrefix } from '../support/isolate';

/**
 * Property: the projected graph is a function of the set of events. In-order delivery in one
 * batch, shuffled one-by-one delivery, every event delivered three times in random batches, and
 * shuffled duplicated delivery over HTTP by 16 clients (projected in the background) give
 * identical canonical dumps; so does re-projection from the stored events.
 */
let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

const items = (events: unknown[]) => events.map((value) => ({ raw: JSON.stringify(value), value }));

describe('order and duplicate independence (generated runs)', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: in order, shuffled, triplicated and over HTTP (projected in the background), one graph`, async () => {
      const random = rng(seed * 7919);
      const prefixes = ['inorder', 'shuffled', 'triple', 'http'].map((l) => uniquePrefix(`prop${seed}-${l}`));
      const [inOrder, shuffled, triple, overHttp] = prefixes.map((p) => generateEvents(p, seed)) as [any[], any[], any[], any[]];
      await svc.app.ingestor.ingest(items(inOrder));
      for (const e of shuffle(shuffled, random)) await svc.app.ingestor.ingest(items([e]));
      const tripled = shuffle([...triple, ...triple, ...triple], random);
      for (let i = 0; i < tripled.length; ) {
        const size = 1 + Math.floor(random() * 10);
        await svc.app.ingestor.ingest(items(tripled.slice(i, i + size)));
        i += size;
      }
      // Over HTTP (stored, then projected by the background projector in whatever batches form):
      // shuffled, each event twice, 16 clients at once.
      const sent = shuffle([...overHttp, ...overHttp], random);
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = next++; i < sent.length; i = next++) assert.ok((await svc.postEvent(sent[i])).status < 300);
        }),
      );
      const dumps = await Promise.all(prefixes.map(async (p) => normalisedDump(p, await dumpNamespaces(svc.app, p))));
      assert.ok(dumps[0]!.length > 150, `graph size ${dumps[0]!.length}`);
      assertSameGraph(dumps[0]!, dumps[1]!, 'shuffled');
      assertSameGraph(dumps[0]!, dumps[2]!, 'triplicated');
      assertSameGraph(dumps[0]!, dumps[3]!, 'over HTTP, projected in the background');
    });
  }

  it('the Kafka worker\'s path: chunks validated and planned ahead, several per transaction, an event in two chunks, a chunk submitted again: the same graph', async () => {
    for (const seed of [4, 5]) {
      const random = rng(seed * 7919);
      const [a, b] = ['inorder', 'chunks'].map((l) => uniquePrefix(`prop${seed}-${l}`)) as [string, string];
      await svc.app.ingestor.ingest(items(generateEvents(a, seed)));
      const events = generateEvents(b, seed) as unknown[];
      // Shuffled; every fifth event sent again in a later chunk.
      const sent = shuffle([...events, ...events.filter((_, i) => i % 5 === 0)], random);
      let duplicates = 0;
      for (let i = 0; i < sent.length; ) {
        const chunks = [];
        for (let c = 1 + Math.floor(random() * 4); c > 0 && i < sent.length; c--) {
          const size = 1 + Math.floor(random() * 10);
          const chunkItems = items(sent.slice(i, i + size));
          chunks.push({ items: chunkItems, prepared: await svc.app.ingestor.prepareChunk(chunkItems, 3) });
          i += size;
        }
        const outcomes = (await svc.app.ingestor.ingestChunks(chunks)).flat();
        assert.ok(outcomes.every((o) => o.ok), JSON.stringify(outcomes.find((o) => !o.ok)));
        // As after a failed transaction: the same prepared chunks again, now every event a duplicate.
        if (random() < 0.2) {
          const again = (await svc.app.ingestor.ingestChunks(chunks)).flat();
          assert.ok(again.every((o) => o.ok && o.duplicate), 'submitted again: duplicates');
          duplicates++;
        }
      }
      assert.ok(duplicates > 0, 'some chunks submitted twice');
      const [one, chunked] = await Promise.all([a, b].map(async (p) => normalisedDump(p, await dumpNamespaces(svc.app, p))));
      assert.ok(one!.length > 150, `graph size ${one!.length}`);
      assertSameGraph(one!, chunked!, `seed ${seed}: chunks prepared ahead`);
    }
  });

  it('corpus events that reuse run ids across jobs (dbt fixtures) give one graph in every order, no orphan job version', async () => {
    const docs = manifest()
      .filter((r) => /dbt__.*result\.json$/.test(r.file))
      .flatMap((r) => docsOf(r.file))
      .map((d) => d.value)
      .filter(isAccepted);
    assert.equal(docs.length, 24);
    const random = rng(42);
    const dumps: string[][] = [];
    for (let delivery = 0; delivery < 8; delivery++) {
      const prefix = uniquePrefix(`reused-${delivery}`);
      const events = docs.map((d) => isolate(d, prefix));
      if (delivery === 0) await svc.app.ingestor.ingest(items(events));
      else if (delivery % 2 === 1) for (const e of shuffle(events, random)) await svc.app.ingestor.ingest(items([e]));
      else {
        const mixed = shuffle([...events, ...events], random);
        for (let i = 0; i < mixed.length; i += 7) await svc.app.ingestor.ingest(items(mixed.slice(i, i + 7)));
      }
      const dump = await dumpNamespaces(svc.app, prefix);
      const versions = dump.nodes.filter((n) => n.labels.includes('JobVersion')).map((n) => n.props.id);
      const linked = new Set(dump.rels.filter((r) => r.type === 'OF_VERSION').map((r) => r.to));
      assert.deepEqual(versions.filter((v) => !linked.has(v as string)), [], 'every job version has a run');
      dumps.push(normalisedDump(prefix, dump));
    }
    for (let i = 1; i < dumps.length; i++) assertSameGraph(dumps[0]!, dumps[i]!, `delivery ${i}`);
  });

  it('re-projection from stored events rebuilds the same graph', async () => {
    const prefix = uniquePrefix('reproject');
    await svc.app.ingestor.ingest(items(generateEvents(prefix, 42)));
    const before = await dumpNamespaces(svc.app, prefix);
    const progress: string[] = [];
    const result = await reproject(svc.app.executor, prefix, (p) => progress.push(p.phase), 7);
    assert.equal(result.replayed, 8 * 3 * 3);
    assert.equal(result.invalid, 0);
    assert.ok(result.deleted >= before.nodes.length - 1, `deleted ${result.deleted}`);
    assert.ok(progress.includes('delete') && progress.includes('replay'));
    const after = await dumpNamespaces(svc.app, prefix);
    assertSameGraph(normalisedDump(prefix, before), normalisedDump(prefix, after), 'reprojected');
  });
});
