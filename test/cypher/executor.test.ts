import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { Query } from '../../src/graph/queries';
import { datasetId } from '../../src/ids';
import type { Logger } from '../../src/log';
import { Executor } from '../../src/graph/executor';
import { loadQueries } from '../../src/graph/queries';
import { applySchema, createdConcurrently, isSchemaApplied } from '../../src/graph/schema';
import { startService, type TestService } from '../support/app';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('the executor names its transactions and queries', () => {
  it('shows app and transaction name in SHOW TRANSACTIONS while a transaction is open', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const open = svc.app.executor.readTx('probe-transaction', async (tx) => {
      await tx.run(Query.NodeExists, { datasetId: datasetId('t-executor', 'x'), jobId: null, fieldId: null, fieldDatasetId: null, fieldName: null });
      entered();
      await held;
    });
    await inside;
    const session = svc.app.driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const res = await session.run('SHOW TRANSACTIONS YIELD metaData RETURN metaData');
      const mine = res.records.map((r) => r.get('metaData') as Record<string, unknown>).filter((m) => m.app === 'tributary');
      assert.ok(mine.some((m) => m.tx === 'probe-transaction'), JSON.stringify(mine));
    } finally {
      release();
      await open;
      await session.close();
    }
  });

  it('logs each query by name with parameter sizes, rows and time at debug level, never values', async () => {
    const lines: Record<string, unknown>[] = [];
    const log: Logger = { debug: (msg, f) => lines.push({ msg, ...f }), info: () => {}, warn: () => {}, error: () => {} };
    const executor = new Executor(svc.app.driver, loadQueries(), { log });
    await executor.read(Query.DatasetsById, { ids: [datasetId('t-executor', 'secret-name')] });
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line!.query, 'nodes/datasets-by-id');
    assert.deepEqual(line!.params, { ids: 'list(1)' });
    assert.equal(line!.rows, 0);
    assert.equal(typeof line!.ms, 'number');
    assert.doesNotMatch(JSON.stringify(lines), /secret-name/);
  });
});

describe('the schema, applied by several processes at once', () => {
  it('counts a rule another session created at the same moment as applied (IF NOT EXISTS is not atomic across sessions)', async () => {
    const tag = `race_${process.pid}_${Date.now()}`;
    const statements = Array.from({ length: 4 }, (_, i) => ({ name: `${tag}_${i}`, text: `CREATE INDEX ${tag}_${i} IF NOT EXISTS FOR (n:SchemaRace_${tag}) ON (n.p${i})` }));
    const session = svc.app.driver.session();
    try {
      // Twelve appliers at once, as replicas or parallel test files starting on a fresh database.
      const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => applySchema(svc.app.executor, statements, [])));
      assert.deepEqual(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)), []);
      assert.equal(await isSchemaApplied(svc.app.executor, statements), true);
    } finally {
      for (const s of statements) await session.run(`DROP INDEX ${s.name} IF EXISTS`);
      await session.close();
    }
  });

  it('still fails on any other schema error', async () => {
    await assert.rejects(applySchema(svc.app.executor, [{ name: 'bad', text: 'CREATE INDEX bad_index IF NOT EXISTS FOR (n:X) ON' }], []));
    assert.equal(createdConcurrently({ code: 'Neo.ClientError.Statement.SyntaxError' }), false);
    assert.equal(createdConcurrently(null), false);
  });
});

describe('a transaction larger than Neo4j lets one be', () => {
  it('fails once with LIMIT_EXCEEDED naming the heap (MemoryPoolOutOfMemoryError is not retried)', async () => {
    // A query that holds more than the test Neo4j's transaction memory (70% of its 1 GiB heap).
    const hog = 'UNWIND range(1, 80000000) AS i WITH collect(i) AS l RETURN size(l) AS n';
    const executor = new Executor(svc.app.driver, { ...loadQueries(), [Query.Ping]: hog });
    let attempts = 0;
    await assert.rejects(
      executor.readTx('memory-hog', (tx) => {
        attempts++;
        return tx.run(Query.Ping);
      }),
      (err: Error & { code?: string }) => err.code === 'LIMIT_EXCEEDED' && /TRIBUTARY_NEO4J_HEAP/.test(err.message),
    );
    assert.equal(attempts, 1);
  });
});
