import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { loadSchemaStatements, loadSchemaWaits } from '../../src/graph/schema';
import { secondPassQueries, warmUpShapes, warmUpTransactions } from '../../src/graph/warmup';

describe('cypher/ files', () => {
  it('every listed query has a file with a Purpose/Parameters/Columns header, and no file is unlisted', () => {
    const q = loadQueries();
    for (const name of Object.values(Query)) {
      assert.match(q[name], /\/\/ Purpose:/, name);
      assert.ok(q[name].split('\n').some((l) => l.trim() && !l.startsWith('//')), `${name} has a body`);
    }
  });

  it('queries take values only as parameters (no string templates)', () => {
    const q = loadQueries();
    for (const name of Object.values(Query)) {
      assert.doesNotMatch(q[name], /\$\{/, name);
    }
  });

  it('TypeScript runs Cypher only by query name: no template literal, string or concatenation reaches run()', () => {
    // Outside the executor, run() is TxRunner.run, typed to take a Query; what can still slip
    // through is a literal or a concatenation. The executor alone turns names into texts (and runs
    // the schema statements schema.ts read from cypher/schema); only src/graph uses the driver's values.
    const inExecutor = ['this.texts[query]', '`EXPLAIN ${this.texts[query]}`', '`CYPHER replan=force EXPLAIN ${this.texts[query]}`', 'this.texts[Query.UncommittedWrite]', 'statement', 'query'];
    const suspicious = (first: string) => /^[`'"]/.test(first) || /\+/.test(first);
    const offenders: string[] = [];
    const src = path.resolve(__dirname, '..', '..', '..', 'src');
    for (const file of tsFiles(src)) {
      const rel = path.relative(src, file);
      const text = fs.readFileSync(file, 'utf8');
      if (/import (?!type )[^;]*from 'neo4j-driver'/.test(text) && !rel.startsWith(`graph${path.sep}`)) offenders.push(`${rel} imports neo4j-driver`);
      for (const m of text.matchAll(RUN_CALL)) {
        const [, receiver, arg] = m;
        if (receiver === 'consumer') continue; // kafkajs consumer.run({...}), not Cypher
        const first = arg!.trim();
        const ok = rel === path.join('graph', 'executor.ts') ? inExecutor.includes(first) : !suspicious(first);
        if (!ok) offenders.push(`${rel}: ${receiver}.run(${first}`);
      }
    }
    assert.deepEqual(offenders, []);
    // The check catches the forms it is meant to catch.
    const probe = 'tx.run(`MATCH (n {id: "${id}"}) RETURN n`); session.run("MATCH " + x); tx.run(q + where, {}); tx.run(Query.JobsById, {});';
    assert.equal([...probe.matchAll(RUN_CALL)].filter((m) => suspicious(m[2]!.trim())).length, 3);
  });

  it('schema statements are named and idempotent', () => {
    const s = loadSchemaStatements();
    assert.ok(s.length >= 5);
    for (const st of s) assert.match(st.text, /IF NOT EXISTS/, st.name);
    assert.deepEqual(
      s.filter((x) => x.text.startsWith('CREATE CONSTRAINT')).map((x) => x.name),
      ['dataset_id', 'job_id', 'run_id', 'field_id', 'event_id', 'job_version_id', 'sql_table_key', 'annotation_id', 'tag_name', 'log_offset_id', 'namespace_name'],
    );
    assert.deepEqual(loadSchemaWaits(), ['CALL db.awaitIndexes(300)']);
  });
});

describe('Warm-up header lines', () => {
  it('parse, and a malformed one names its file', () => {
    const texts = loadQueries();
    assert.ok(warmUpShapes(texts).size > 20);
    const broken = { ...texts, [Query.JobsById]: `// Warm-up: {"ids": "-"}\n${texts[Query.JobsById]}` };
    assert.throws(() => warmUpShapes(broken), /nodes\/jobs-by-id\.cypher: Warm-up must map each parameter/);
    const notJson = { ...texts, [Query.JobsById]: `// Warm-up: {ids}\n${texts[Query.JobsById]}` };
    assert.throws(() => warmUpShapes(notJson), /nodes\/jobs-by-id\.cypher: the Warm-up line is not JSON/);
    const transactions = warmUpTransactions(texts);
    assert.equal(transactions.get(Query.MergeOutputs), 'after-write');
    assert.equal(transactions.get(Query.LockProjection), 'write', 'an ingest query without the line: both ways');
    assert.equal(transactions.get(Query.JobsById), 'read');
    const badTx = { ...texts, [Query.JobsById]: `// Warm-up transaction: later\n${texts[Query.JobsById]}` };
    assert.throws(() => warmUpTransactions(badTx), /nodes\/jobs-by-id\.cypher: Warm-up transaction must be one of "read", "first", "after-write"/);
    const badPass = { ...texts, [Query.JobsById]: `// Warm-up pass: third\n${texts[Query.JobsById]}` };
    assert.throws(() => secondPassQueries(badPass), /nodes\/jobs-by-id\.cypher: Warm-up pass must be "first" or "second"/);
  });

  it('give the first pass the first combination of each map, and the second pass the rest', () => {
    const texts = loadQueries();
    const line = '// Warm-up: [{"ids": [{"listOf": "-", "sizes": [1, 10]}], "asOf": [null, "t"]}, {"ids": [[]], "asOf": [null]}]';
    const shapes = warmUpShapes({ ...texts, [Query.JobsById]: `${line}\n${texts[Query.JobsById].replace(/^\/\/ Warm-up:.*\n/m, '')}` });
    assert.deepEqual(shapes.firstPass(Query.JobsById), [{ ids: ['-'], asOf: null }, { ids: [], asOf: null }]);
    assert.deepEqual(shapes.secondPass(Query.JobsById), [{ ids: ['-'], asOf: 't' }, { ids: Array(10).fill('-'), asOf: null }, { ids: Array(10).fill('-'), asOf: 't' }]);
    assert.equal(shapes.get(Query.JobsById)!.length, 5);
    // One map: its first combination alone.
    assert.equal(shapes.firstPass(Query.MarquezTags).length, 1);
  });
});

const RUN_CALL = /\b(\w+)\.run(?:<[^>]*>)?\(\s*([^,)]*)/g;

function tsFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}
