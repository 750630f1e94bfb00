import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { loadSchemaStatements } from '../../src/graph/schema';
import { warmUpShapes } from '../../src/graph/warmup';

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

  it('schema statements are named and idempotent', () => {
    const s = loadSchemaStatements();
    assert.ok(s.length >= 5);
    for (const st of s) assert.match(st.text, /IF NOT EXISTS/, st.name);
    assert.deepEqual(
      s.filter((x) => x.text.startsWith('CREATE CONSTRAINT')).map((x) => x.name),
      ['dataset_id', 'job_id', 'run_id', 'field_id', 'event_id', 'job_version_id'],
    );
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
  });
});
