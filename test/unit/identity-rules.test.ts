import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/config';
import { compileRules, loadRules } from '../../src/ingest/identity-rules';
import { NO_RULES, normaliseDatasetName } from '../../src/ingest/naming';
import { NormalisationCode } from '../../src/lineage/types';

const rules = compileRules({
  kafkaClusters: [
    { name: 'orders-cluster', namespace: 'kafka://kafka-a.internal:9092', brokers: ['kafka-b.internal:9092'], hostPattern: 'kafka-*.internal' },
    { name: 'by-broker', namespace: 'kafka://events', brokers: ['EVENTS-1.example.com'] },
  ],
  namespaceAliases: [{ name: 'metastore', from: ['hive://metastore:9083', 'HIVE://Metastore2:9083'], to: 'iceberg://catalog' }],
  datasetAliases: [{ name: 'legacy', from: { namespace: 's3a://lake/', name: 'legacy/orders/' }, to: { namespace: 'iceberg://catalog', name: 'db.orders' } }],
});
const codes = (ns: string, name: string) => normaliseDatasetName(ns, name, rules).steps.map((s) => s.code);

describe('identity rules', () => {
  it('names topics on any broker of a declared cluster by the cluster namespace, by broker or host pattern', () => {
    const b = normaliseDatasetName('kafka://kafka-b.internal:9092', 'orders', rules);
    assert.equal(b.namespace, 'kafka://kafka-a.internal:9092');
    assert.deepEqual(b.steps, [
      {
        code: NormalisationCode.RULE_KAFKA_CLUSTER,
        rule: 'orders-cluster',
        message: 'broker kafka-b.internal:9092 is in Kafka cluster orders-cluster, named kafka://kafka-a.internal:9092',
      },
    ]);
    // By pattern (case-insensitive), from inside a bootstrap list with protocols.
    assert.equal(normaliseDatasetName('kafka://SASL_SSL://Kafka-C.internal:9093,other:1', 'orders', rules).namespace, 'kafka://kafka-a.internal:9092');
    assert.deepEqual(codes('kafka://SASL_SSL://Kafka-C.internal:9093,other:1', 'orders'), [
      NormalisationCode.KAFKA_PROTOCOL,
      NormalisationCode.KAFKA_HOST_CASE,
      NormalisationCode.KAFKA_BROKER_LIST,
      NormalisationCode.RULE_KAFKA_CLUSTER,
    ]);
    // A broker given by host only matches any port; the canonical broker itself needs no step.
    assert.equal(normaliseDatasetName('kafka://events-1.example.com:9092', 't', rules).namespace, 'kafka://events');
    assert.deepEqual(codes('kafka://kafka-a.internal:9092', 'orders'), []);
    // `*` does not cross a port, and other hosts are untouched.
    assert.equal(normaliseDatasetName('kafka://kafka-a.elsewhere:9092', 'orders', rules).namespace, 'kafka://kafka-a.elsewhere:9092');
  });

  it('applies namespace and dataset aliases after the built-in rules, each once, with the rule name', () => {
    const hive = normaliseDatasetName('hive://metastore2:9083', 'db.orders', rules);
    assert.equal(hive.namespace, 'iceberg://catalog');
    assert.deepEqual(
      hive.steps.map((s) => [s.code, s.rule]),
      [[NormalisationCode.RULE_NAMESPACE_ALIAS, 'metastore']],
    );
    const legacy = normaliseDatasetName('S3A://lake', 'legacy/orders', rules);
    assert.deepEqual([legacy.namespace, legacy.name], ['iceberg://catalog', 'db.orders']);
    assert.deepEqual(legacy.steps.map((s) => s.code), [NormalisationCode.SCHEME_CASE, NormalisationCode.HADOOP_S3_SCHEME, NormalisationCode.RULE_DATASET_ALIAS]);
    assert.deepEqual(normaliseDatasetName('s3a://lake', 'legacy/orders', NO_RULES).namespace, 's3://lake');
  });

  it('has a digest that changes with the rules and is empty without rules', () => {
    assert.equal(compileRules({}).digest, '');
    assert.equal(compileRules(null).count, 0);
    assert.match(rules.digest, /^[0-9a-f]{64}$/);
    assert.notEqual(compileRules({ namespaceAliases: [{ name: 'a', from: 'x://1', to: 'x://2' }] }).digest, rules.digest);
    assert.deepEqual(
      rules.declared.map((r) => [r.name, r.kind]),
      [
        ['orders-cluster', 'KAFKA_CLUSTER'],
        ['by-broker', 'KAFKA_CLUSTER'],
        ['metastore', 'NAMESPACE_ALIAS'],
        ['legacy', 'DATASET_ALIAS'],
      ],
    );
  });

  it('refuses bad files with every problem named: typos, chains, duplicates, cycles, wrong types', () => {
    const refuses = (doc: unknown, ...parts: RegExp[]) =>
      assert.throws(
        () => compileRules(doc),
        (e: unknown) => e instanceof ConfigError && parts.every((p) => p.test(e.message)),
      );
    refuses({ kafkaCluster: [] }, /Unrecognized key.*kafkaCluster/);
    refuses({ kafkaClusters: [{ name: 'x', namespace: 'kafka://a:1' }] }, /needs brokers or a hostPattern/);
    refuses({ kafkaClusters: [{ name: 'x', namespace: 'http://a', brokers: ['a:1'] }] }, /starts with kafka:\/\//);
    refuses({ kafkaClusters: [{ name: 'x', namespace: 'kafka://a', hostPattern: 'a(b|c)' }] }, /host pattern/);
    refuses({ kafkaClusters: [{ name: 'x', namespace: 'kafka://a', brokers: ['kafka://a:1'] }] }, /without a scheme/);
    refuses(
      {
        namespaceAliases: [
          { name: 'a', from: 'x://1', to: 'x://2' },
          { name: 'a', from: 'x://2', to: 'x://3' },
        ],
      },
      /"a" is used twice/,
      /itself aliased/,
    );
    refuses({ namespaceAliases: [{ name: 'self', from: 'S3A://b', to: 's3://b' }] }, /already s3:\/\/b/);
    refuses(
      {
        datasetAliases: [
          { name: 'p', from: { namespace: 'a://', name: 'x' }, to: { namespace: 'b://', name: 'y' } },
          { name: 'q', from: { namespace: 'b://', name: 'y' }, to: { namespace: 'a://', name: 'x' } },
        ],
      },
      /rules do not chain/,
    );
    refuses('just a string', /expected object/);
    refuses([1, 2], /expected object/);
    refuses({ datasetAliases: [{ name: '', from: {}, to: 5 }] }, /datasetAliases\.0\.name/, /datasetAliases\.0\.to/);
    refuses({ namespaceAliases: [{ name: 'n'.repeat(201), from: 'a://', to: 'b://' }] }, /namespaceAliases\.0\.name/);
  });

  it('loads YAML or JSON files and says which file is wrong and why', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-'));
    try {
      const yaml = path.join(dir, 'rules.yaml');
      fs.writeFileSync(yaml, 'kafkaClusters:\n  - name: ü-cluster\n    namespace: kafka://a:1\n    brokers: [b:1]\n');
      assert.equal(normaliseDatasetName('kafka://b:1', 't', loadRules(yaml)).namespace, 'kafka://a:1');
      const json = path.join(dir, 'rules.json');
      fs.writeFileSync(json, JSON.stringify({ namespaceAliases: [{ name: 'n', from: 'a://x', to: 'b://y' }] }));
      assert.equal(loadRules(json).count, 1);
      assert.equal(loadRules(undefined), NO_RULES);
      assert.throws(() => loadRules(path.join(dir, 'missing.yaml')), /cannot read .*missing\.yaml/);
      fs.writeFileSync(yaml, 'kafkaClusters: [unclosed');
      assert.throws(() => loadRules(yaml), /rules\.yaml is not valid YAML or JSON/);
      // A billion-laughs style alias bomb is refused by the parser, not expanded.
      const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 12; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
      fs.writeFileSync(yaml, bomb.join('\n'));
      assert.throws(() => loadRules(yaml), (e: unknown) => e instanceof ConfigError && /Excessive alias count/.test(e.message));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
