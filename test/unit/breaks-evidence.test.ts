import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRules } from '../../src/ingest/identity-rules';
import { normaliseDatasetName } from '../../src/ingest/naming';
import { compare, type Candidate } from '../../src/lineage/breaks-evidence';
import { MatchStrength } from '../../src/lineage/types';

const ds = (namespace: string, name: string, fields: string[] = []): Candidate => ({ id: `${namespace} ${name}`, namespace, name, fields });

/** The suggested rule, compiled, makes the read name the written one. */
function assertRuleMerges(read: Candidate, written: Candidate, rule: string) {
  const rules = compileRules(JSON.parse(rule));
  const n = normaliseDatasetName(read.namespace, read.name, rules);
  assert.deepEqual([n.namespace, n.name], [written.namespace, written.name]);
}

describe('lineage-break evidence', () => {
  it('grades a topic STRONG when one broker is in the bootstrap lists producers sent for both names (Debezium vs openlineage-flink)', () => {
    // Debezium names the topic by its whole bootstrap string (normalised to the lowest broker),
    // openlineage-flink by the first server of its own list: hosts with nothing else in common.
    const written = { ...ds('kafka://127.0.0.1:19092', 'pg.shop.orders'), rawNamespaces: ['kafka://127.0.0.1:19092,localhost:19093'] };
    const read = { ...ds('kafka://localhost:19093', 'pg.shop.orders'), rawNamespaces: ['kafka://localhost:19093'] };
    const e = compare(read, written)!;
    assert.equal(e.strength, MatchStrength.STRONG);
    assert.match(e.evidence.join('\n'), /broker localhost:19093 is in the bootstrap servers producers sent for both \(kafka:\/\/127\.0\.0\.1:19092,localhost:19093\)/);
    assertRuleMerges(read, written, e.rule);
    // Without the raw list the same pair is only MEDIUM (the hosts share no domain or pattern).
    assert.equal(compare(ds(read.namespace, read.name), ds(written.namespace, written.name))!.strength, MatchStrength.MEDIUM);
  });

  it('grades one Kafka topic on two brokers of one domain STRONG, with a cluster rule that merges them', () => {
    const read = ds('kafka://kafka-b.internal:9092', 'orders');
    const written = ds('kafka://kafka-a.internal:9092', 'orders');
    const e = compare(read, written)!;
    assert.equal(e.strength, 'STRONG');
    assert.equal(e.key, 'orders');
    assert.deepEqual(e.evidence, [
      'the same Kafka topic orders on other brokers: kafka-b.internal:9092 (read) and kafka-a.internal:9092 (written)',
      'the brokers are in one domain, internal',
      'the brokers follow one naming pattern, kafka*',
    ]);
    assert.equal(e.ruleKind, 'KAFKA_CLUSTER');
    assert.deepEqual(JSON.parse(e.rule), {
      kafkaClusters: [{ name: 'kafka', namespace: 'kafka://kafka-a.internal:9092', brokers: ['kafka-a.internal:9092', 'kafka-b.internal:9092'] }],
    });
    assertRuleMerges(read, written, e.rule);
  });

  it('grades a host naming pattern STRONG, unrelated brokers MEDIUM, other topics and other kinds not at all', () => {
    assert.equal(compare(ds('kafka://broker-2.dc1:9092', 't'), ds('kafka://broker-1.dc1:9092', 't'))!.strength, 'STRONG');
    // Prod and staging: one host pattern, two domains.
    const stages = compare(ds('kafka://kafka-1.prod.example.com:9092', 't'), ds('kafka://kafka-1.staging.example.com:9092', 't'))!;
    assert.equal(stages.strength, 'MEDIUM');
    assert.equal(stages.evidence[1], 'the brokers are in different domains, prod.example.com and staging.example.com: two clusters may use one topic name');
    assert.equal(compare(ds('kafka://broker12:9092', 't'), ds('kafka://broker3:9092', 't'))!.strength, 'STRONG');
    // A trailing letter is an index only after - or _: kafka and kafko are not one pattern.
    assert.equal(compare(ds('kafka://kafka:9092', 't'), ds('kafka://kafko:9092', 't'))!.strength, 'MEDIUM');
    const unrelated = compare(ds('kafka://10.0.0.1:9092', 't'), ds('kafka://kafka.example.com:9092', 't'))!;
    assert.equal(unrelated.strength, 'MEDIUM');
    assert.match(unrelated.evidence[1]!, /neither a domain nor a naming pattern/);
    assert.equal(compare(ds('kafka://a.x:1', 'orders'), ds('kafka://b.x:1', 'orders_v2')), null);
    assert.equal(compare(ds('kafka://a.x:1', 'orders'), ds('s3://bucket', 'topics/orders')), null);
  });

  it('grades the same table under two catalogs STRONG with matching fields, MEDIUM without, WEAK when they disagree', () => {
    const read = ds('hive://metastore:9083', 'db.orders', ['id', 'amount', 'status']);
    const written = ds('iceberg://catalog', 'db.orders', ['id', 'amount', 'status', 'updated_at']);
    const strong = compare(read, written)!;
    assert.equal(strong.strength, 'STRONG');
    assert.deepEqual(strong.evidence, [
      'the same name db.orders under namespaces hive://metastore:9083 (read) and iceberg://catalog (written)',
      'schema fields match: 3 of the 3 fields read are among the 4 written',
    ]);
    assert.equal(strong.ruleKind, 'NAMESPACE_ALIAS');
    assertRuleMerges(read, written, strong.rule);
    assert.equal(compare({ ...read, fields: [] }, written)!.strength, 'MEDIUM');
    const disagree = compare({ ...read, fields: ['a', 'b', 'c'] }, written)!;
    assert.equal(disagree.strength, 'WEAK');
    assert.match(disagree.evidence[1]!, /schema fields disagree: only 0 of the 3/);
  });

  it('matches a warehouse path with a catalog name by schema.table, with a dataset alias rule', () => {
    const read = ds('hive://metastore:9083', 'db.orders', ['id']);
    const written = ds('s3://lake', 'warehouse/db/orders.parquet', ['id']);
    const e = compare(read, written)!;
    assert.equal(e.strength, 'STRONG');
    assert.equal(e.key, 'db.orders');
    assert.equal(e.ruleKind, 'DATASET_ALIAS');
    assertRuleMerges(read, written, e.rule);
  });

  it('grades a name suffix alone WEAK (MEDIUM with matching fields)', () => {
    const read = ds('postgres://db:5432', 'public.customers');
    const written = ds('s3://lake', 'curated/customers');
    const e = compare(read, written)!;
    assert.equal(e.strength, 'WEAK');
    assert.equal(e.key, 'customers');
    assert.equal(e.evidence[0], 'both names end in customers, the segment before differs: public.customers (read) and curated/customers (written)');
    assert.equal(compare({ ...read, fields: ['id'] }, { ...written, fields: ['id', 'name'] })!.strength, 'MEDIUM');
    assert.equal(compare(ds('s3://a', 'x/orders'), ds('s3://a', 'x/customers')), null);
  });
});
