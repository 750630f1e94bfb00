import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NamespaceList, type NamespaceRow } from '../../src/marquez/namespace-list';

const row = (name: string): NamespaceRow => ({ name, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' });

/** A graph of namespaces whose reads can be held open, a projection counter and a clock. */
function fixture(names: string[], cap = 10) {
  const state = { names: [...names], generation: 0, now: 0, loads: 0, hold: null as Promise<void> | null };
  const list = new NamespaceList({
    load: async (limit) => {
      state.loads++;
      const snapshot = state.names.slice(0, limit).map(row);
      if (state.hold) await state.hold;
      return snapshot;
    },
    generation: () => state.generation,
    maxAgeMs: 1_000,
    cap,
    now: () => state.now,
  });
  return { list, state };
}

const names = async (list: NamespaceList) => (await list.all())?.map((r) => r.name) ?? null;

describe('NamespaceList', () => {
  it('answers from memory until this process finishes a projection, then reads again', async () => {
    const { list, state } = fixture(['a', 'b']);
    assert.deepEqual(await names(list), ['a', 'b']);
    state.names.push('c');
    assert.deepEqual(await names(list), ['a', 'b'], 'no projection of this process finished: the copy stands');
    assert.equal(state.loads, 1);
    state.generation++;
    assert.deepEqual(await names(list), ['a', 'b', 'c']);
    assert.equal(state.loads, 2);
  });

  it('reads again once the copy is older than maxAgeMs (writes of other processes)', async () => {
    const { list, state } = fixture(['a']);
    await list.all();
    state.names.push('b');
    state.now = 999;
    assert.deepEqual(await names(list), ['a']);
    state.now = 1_000;
    assert.deepEqual(await names(list), ['a', 'b']);
  });

  it('does not keep rows read while a projection finished, and does not hand them to a request that came after it', async () => {
    const { list, state } = fixture(['a']);
    let release!: () => void;
    state.hold = new Promise((r) => (release = r));
    const early = list.all();
    state.names.push('b');
    state.generation++; // a projection finished while the first read was in flight
    const late = list.all();
    release();
    state.hold = null;
    assert.deepEqual((await early)?.map((r) => r.name), ['a']);
    assert.deepEqual((await late)?.map((r) => r.name), ['a', 'b'], 'the later request read on its own');
    assert.equal(state.loads, 2);
    assert.deepEqual(await names(list), ['a', 'b']);
    assert.equal(state.loads, 2, 'the later read was kept');
  });

  it('shares one read among concurrent misses', async () => {
    const { list, state } = fixture(['a', 'b']);
    const all = await Promise.all(Array.from({ length: 20 }, () => names(list)));
    assert.equal(state.loads, 1);
    assert.ok(all.every((n) => n?.join() === 'a,b'));
  });

  it('keeps nothing past the cap: null, so that the caller reads each page from the graph', async () => {
    const { list, state } = fixture(['a', 'b', 'c', 'd'], 3);
    assert.equal(await list.all(), null);
    assert.equal(await list.all(), null);
    assert.equal(state.loads, 2);
    state.names = ['a', 'b', 'c'];
    state.generation++;
    assert.deepEqual(await names(list), ['a', 'b', 'c']);
  });

  it('passes a failed read on and reads again next time', async () => {
    let fail = true;
    const list = new NamespaceList({
      load: async () => {
        if (fail) throw new Error('database down');
        return [row('a')];
      },
      generation: () => 0,
    });
    await assert.rejects(list.all(), /database down/);
    fail = false;
    assert.deepEqual((await list.all())?.map((r) => r.name), ['a']);
  });
});
