import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse, validate } from 'graphql';
import { loadConfig } from '../../src/config';
import { ANALYTICS_COST, operationCost, operationDepth } from '../../src/graphql/limits';
import { buildGraphqlSchema } from '../../src/graphql/schema';

/**
 * The cost model against the questions users actually ask: every GraphQL example in the README
 * passes the default limits, and abusive shapes (aliases × pages × nesting) are refused. Pure
 * computation on the schema: no Neo4j.
 */
const schema = buildGraphqlSchema();
const config = loadConfig({});
const caps = config.lineage;
const cost = (q: string, variables: Record<string, unknown> = {}) => operationCost(schema, parse(q), caps, variables);

function readmeExamples(): string[] {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
  const fenced = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^#.*$/gm, ''));
  const inline = [...readme.matchAll(/`(\{ [^`]*\})`/g)].map((m) => m[1]!);
  return [...fenced, ...inline].filter((q) => {
    try {
      parse(q);
      return true;
    } catch {
      return false;
    }
  });
}

describe('query cost model', () => {
  it('passes every GraphQL example of the README with the default limits', () => {
    const examples = readmeExamples();
    assert.ok(examples.length >= 10, `found ${examples.length} README examples`);
    for (const q of examples) {
      const doc = parse(q);
      assert.deepEqual(validate(schema, doc).map((e) => e.message), [], q);
      const variables = { id: 'dataset:a:b', ns: 'a' };
      assert.ok(cost(q, variables) <= config.graphql.maxComplexity, `${cost(q, variables)}: ${q}`);
      assert.ok(operationDepth(doc) <= config.graphql.maxDepth, q);
    }
  });

  it('lets a deep blast radius page ask for every field of its items (the depth bounds no page)', () => {
    const q = `{ blastRadius(nodeId: "dataset:a:b", first: 100, depth: 20) {
      truncated truncatedBy depth totals { items datasets fields jobs byDistance { key count } byNamespace { key count } byOwner { key count } }
      items { id kind namespace name datasetId distance via owners lastRunState job { name } viaJobs { name } } pageInfo { endCursor hasNextPage } } }`;
    assert.ok(cost(q) <= config.graphql.maxComplexity, String(cost(q)));
  });

  it('bounds a walk by what it can return: 4^depth nodes, at most TRIBUTARY_MAX_NODES per direction', () => {
    const sel = '{ nodes { id } }';
    assert.equal(cost(`{ lineage(nodeId: "x", depth: 1, direction: UPSTREAM) ${sel} }`), 1 + 4 * 2);
    assert.equal(cost(`{ lineage(nodeId: "x", direction: UPSTREAM) ${sel} }`), 1 + 4 ** caps.defaultDepth * 2);
    assert.equal(cost(`{ lineage(nodeId: "x", depth: 20, direction: UPSTREAM) ${sel} }`), 1 + caps.maxNodes * 2);
    assert.equal(cost(`{ lineage(nodeId: "x", depth: 20, direction: BOTH) ${sel} }`), 1 + 2 * caps.maxNodes * 2);
    assert.equal(cost(`{ trace(nodeId: "x") { hops { fromId } } }`), 1 + caps.maxNodes * 2);
  });

  it('charges the region a field reads before it pages, whatever the page size', () => {
    const items = '{ items { id } }';
    // The blast radius walks everything downstream (to TRIBUTARY_MAX_DEPTH by default), then pages.
    assert.equal(cost(`{ blastRadius(nodeId: "x", first: 1) ${items} }`), 1 + caps.maxNodes + 1 * 2);
    assert.equal(cost(`{ blastRadius(nodeId: "x", first: 1, depth: 2) ${items} }`), 1 + 4 ** 2 + 1 * 2);
    assert.equal(cost(`{ blastRadius(nodeId: "x", first: 100, depth: 20) ${items} }`), 1 + caps.maxNodes + 100 * 2);
    // Twenty one-item pages cost twenty walks.
    const aliased = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: blastRadius(nodeId: "x", first: 1) ${items}`).join(' ')} }`;
    assert.equal(cost(aliased), 20 * (1 + caps.maxNodes + 2));
    assert.equal(cost(`{ search(text: "orders", first: 1) { hits { id } } }`), 1 + caps.maxNodes + 2);
    assert.equal(cost(`{ namespaces(first: 1) { items { name } } }`), 1 + caps.maxNodes + 2);
    assert.equal(cost(`{ identity(id: "dataset:a:b", first: 1) { names { id } } }`), 1 + 4 ** 3 + 2);
    assert.equal(cost(`{ path(fromId: "a", toId: "b") { found } }`), 1 + caps.maxNodes + 1);
    assert.equal(cost(`{ coverageGaps(first: 1) { totalGaps } }`), 1 + ANALYTICS_COST + 1);
    // A lookup or a browse page costs its answer only.
    assert.equal(cost(`{ datasets(first: 10) { items { id } } }`), 1 + 10 * 2);
    assert.equal(cost(`{ dataset(id: "dataset:a:b") { id } }`), 2);
  });

  it('refuses aliases times pages times nesting, and a walk asking for everything about every node', () => {
    const page = 'blastRadius(nodeId: "dataset:a:b", first: 500) { items { id kind name distance via owners lastRunState viaJobs { name owners } } }';
    const aliased = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: ${page}`).join(' ')} }`;
    assert.ok(cost(aliased) > config.graphql.maxComplexity, String(cost(aliased)));
    const walks = `{ ${Array.from({ length: 100 }, (_, i) => `w${i}: lineage(nodeId: "x", depth: 20) { nodes { id } }`).join(' ')} }`;
    assert.ok(cost(walks) > config.graphql.maxComplexity, String(cost(walks)));
    // The README's own full lineage passes; the same with every field of every node does not.
    const full = `{ lineage(nodeId: "x", depth: 20) { nodes { id kind name distance } edges { fromId toId type declared } } }`;
    assert.ok(cost(full) <= config.graphql.maxComplexity, String(cost(full)));
    const everything = `{ lineage(nodeId: "x", depth: 20) { nodes { id kind namespace name datasetId distance side dataset { id name namespace description owners sourceName facets firstSeen lastSeen } }
      edges { fromId toId type firstSeen lastSeen declared current jobId types subtypes } } }`;
    assert.ok(cost(everything) > config.graphql.maxComplexity, String(cost(everything)));
  });
});
