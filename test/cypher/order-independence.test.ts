import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertSameGraph, dumpNamespaces, normalisedDump } from '../support/dump';
import { reproject } from '../../src/ingest/reproject';
import { startService, type TestService } from '../support/app';
import { generateEvents, rng, shuffle } from '../support/generate';
import { uniquePrefix } from '../support/isolate';

/**
 * Property: the projected graph is a function of the set of events. In-order delivery in one
 * batch, shuffled one-by-one delivery, and every event delivered three times in random batches give
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
    it(`seed ${seed}: in order, shuffled, and triplicated deliveries give one graph`, async () => {
      const random = rng(seed * 7919);
      const prefixes = ['inorder', 'shuffled', 'triple'].map((l) => uniquePrefix(`prop${seed}-${l}`));
      const [inOrder, shuffled, triple] = prefixes.map((p) => generateEvents(p, seed)) as [any[], any[], any[]];
      await svc.app.ingestor.ingest(items(inOrder));
      for (const e of shuffle(shuffled, random)) await svc.app.ingestor.ingest(items([e]));
      const tripled = shuffle([...triple, ...triple, ...triple], random);
      for (let i = 0; i < tripled.length; ) {
        const size = 1 + Math.floor(random() * 10);
        await svc.app.ingestor.ingest(items(tripled.slice(i, i + size)));
        i += size;
      }
      const dumps = await Promise.all(prefixes.map(async (p) => normalisedDump(p, await dumpNamespaces(svc.app, p))));
      assert.ok(dumps[0]!.length > 150, `graph size ${dumps[0]!.length}`);
      assertSameGraph(dumps[0]!, dumps[1]!, 'shuffled');
      assertSameGraph(dumps[0]!, dumps[2]!, 'triplicated');
    });
  }

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
