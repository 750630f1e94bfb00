import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadQueries } from '../../src/graph/queries';
import { namedTokens } from '../../src/graph/tokens';

describe('the tokens the queries name', () => {
  it('reads labels, relationship types and property keys from patterns, predicates, reads and projections; not from strings, comments, calls or map literals', () => {
    const t = namedTokens([
      `// (x:Commented)-[:COMMENTED]->() and y.commented
       MATCH (d:Dataset {id: $id})<-[p:PRODUCES|:FEEDS*1..2 {jobId: j.id}]-(j:Job:Versioned)
       WHERE j.collectedBy IS NULL AND NOT e:Pending|Retired AND d.kind = 'Quoted:Label' AND x.note = "(n:InString)"
       CALL db.index.fulltext.queryNodes('catalog_search', $q) YIELD node
       MATCH (f:Field)-[:DERIVES]->(g)
       SET e:Projected
       RETURN d {.name, .storageLayer}, {kind: 'FIELD', id: f.id} AS node, count(*) AS n`,
    ]);
    assert.deepEqual(t.labels, ['Dataset', 'Field', 'Job', 'Pending', 'Projected', 'Retired', 'Versioned']);
    assert.deepEqual(t.relationshipTypes, ['DERIVES', 'FEEDS', 'PRODUCES']);
    assert.deepEqual(t.propertyKeys, ['collectedBy', 'id', 'jobId', 'kind', 'name', 'note', 'storageLayer']);
  });

  it('finds the service\'s own vocabulary in its queries, and nothing from string values', () => {
    const t = namedTokens(Object.values(loadQueries()));
    for (const l of ['Dataset', 'Event', 'Field', 'Job', 'JobVersion', 'Pending', 'Run']) assert.ok(t.labels.includes(l), l);
    for (const r of ['DERIVES', 'FEEDS', 'HAS_FIELD', 'INFLUENCES', 'PRODUCES', 'RUN_OF', 'SYMLINK']) assert.ok(t.relationshipTypes.includes(r), r);
    for (const k of ['collectedBy', 'current', 'firstSeen', 'storageLayer', 'fileFormat', 'errorMessage']) assert.ok(t.propertyKeys.includes(k), k);
    // 'FIELD', 'DATASET', 'ALIAS', 'COLLECTED' are values the queries compare with, not tokens.
    for (const v of ['FIELD', 'DATASET', 'ALIAS', 'COLLECTED', 'INDIRECT']) assert.ok(!t.relationshipTypes.includes(v) && !t.labels.includes(v), v);
    assert.ok(t.labels.every((l) => /^[A-Z][A-Za-z]+$/.test(l)), t.labels.join(', '));
    assert.ok(t.relationshipTypes.every((r) => /^[A-Z_]+$/.test(r)), t.relationshipTypes.join(', '));
  });
});
