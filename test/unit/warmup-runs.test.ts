import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadQueries, Query } from '../../src/graph/queries';
import { warmUpShapes } from '../../src/graph/warmup';
import { warmUpRuns } from '../../src/graph/warmup-runs';

describe('Warm-up runs header lines', () => {
  const texts = loadQueries();
  const shapes = warmUpShapes(texts);

  it('give the declared number of executions, parameters taken in turn over the Warm-up combinations', () => {
    const runs = warmUpRuns(texts, shapes);
    const search = runs.get(Query.MarquezSearch)!;
    assert.equal(search.length, 30);
    assert.deepEqual(search.slice(0, 2).map((p) => p.query), ['+a*', '+b*']);
    // Every combination of the Warm-up line is run (labels x namespace), not only the first.
    assert.equal(new Set(search.map((p) => JSON.stringify([p.labels, p.namespace]))).size, shapes.get(Query.MarquezSearch)!.length);
    const graphql = runs.get(Query.Search)!;
    assert.ok(graphql.every((p) => p.query === `+${p.text as string}*` && p.limit === 20));
  });

  it('refuse a malformed line, naming the file', () => {
    const withLine = (line: string) => ({ ...texts, [Query.MarquezSearch]: `${line}\n${texts[Query.MarquezSearch]}` });
    const bad: [string, RegExp][] = [
      ['// Warm-up runs: {times: 3}', /marquez\/search\.cypher: the Warm-up runs line is not JSON/],
      ['// Warm-up runs: [3]', /must be an object with "times"/],
      ['// Warm-up runs: {"times": 0}', /"times" must be an integer from 1 to 1000/],
      ['// Warm-up runs: {"times": 5000}', /"times" must be an integer from 1 to 1000/],
      ['// Warm-up runs: {"times": 2, "query": []}', /"query" must be a non-empty list/],
      ['// Warm-up runs: {"times": 2, "nope": [1]}', /"nope" is not a parameter of the Warm-up line/],
    ];
    for (const [line, error] of bad) assert.throws(() => warmUpRuns(withLine(line), shapes), error, line);
    const noShapes = { ...texts, [Query.JobsById]: `// Warm-up runs: {"times": 2}\n${texts[Query.JobsById].replace(/^\/\/ Warm-up:.*$/m, '')}` };
    assert.throws(() => warmUpRuns(noShapes, warmUpShapes(noShapes)), /nodes\/jobs-by-id\.cypher: Warm-up runs needs a Warm-up line/);
  });
});
