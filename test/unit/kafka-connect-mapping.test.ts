import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorLineage, jdbcNamespace, MAX_REGEX_TOPICS, type MappingContext } from '../../src/kafka-connect/mapping';

const ctx: MappingContext = { kafkaNamespace: 'kafka://broker-1:9092', knownTopics: ['pg.shop.orders', 'pg.shop.customers', 'orders.enriched', 'audit'] };
const k = (name: string) => ({ namespace: 'kafka://broker-1:9092', name });

describe('Kafka Connect connector mapping', () => {
  it('maps FileStreamSink and FileStreamSource from their configuration', () => {
    assert.deepEqual(connectorLineage({ 'connector.class': 'org.apache.kafka.connect.file.FileStreamSinkConnector', topics: 'pg.shop.orders', file: '/var/archive/orders.jsonl' }, ctx), {
      status: 'MAPPED',
      mapping: 'FileStreamSink',
      inputs: [k('pg.shop.orders')],
      outputs: [{ namespace: 'file', name: '/var/archive/orders.jsonl' }],
      notes: [],
    });
    const source = connectorLineage({ 'connector.class': 'org.apache.kafka.connect.file.FileStreamSourceConnector', file: '/in.txt', topic: 'lines' }, ctx);
    assert.deepEqual([source.inputs, source.outputs], [[{ namespace: 'file', name: '/in.txt' }], [k('lines')]]);
  });

  it('maps the S3, JDBC, Elasticsearch and Iceberg sinks and the JDBC and Debezium sources', () => {
    const s3 = connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', topics: 'pg.shop.orders,audit', 's3.bucket.name': 'lake' }, ctx);
    assert.deepEqual(s3.outputs, [
      { namespace: 's3://lake', name: 'topics/pg.shop.orders' },
      { namespace: 's3://lake', name: 'topics/audit' },
    ]);
    const jdbc = connectorLineage({ 'connector.class': 'io.confluent.connect.jdbc.JdbcSinkConnector', topics: 'audit', 'connection.url': 'jdbc:postgresql://DB.internal/warehouse?ssl=true', 'table.name.format': 'raw_${topic}' }, ctx);
    assert.deepEqual(jdbc.outputs, [{ namespace: 'postgres://db.internal:5432', name: 'warehouse.public.raw_audit' }]);
    const es = connectorLineage({ 'connector.class': 'io.confluent.connect.elasticsearch.ElasticsearchSinkConnector', topics: 'Audit', 'connection.url': 'https://es-1:9200,https://es-2:9200' }, ctx);
    assert.deepEqual(es.outputs, [{ namespace: 'elasticsearch://es-1:9200', name: 'audit' }]);
    const ice = connectorLineage({ 'connector.class': 'org.apache.iceberg.connect.IcebergSinkConnector', topics: 'audit', 'iceberg.tables': 'db.audit', 'iceberg.catalog.warehouse': 's3://lake/warehouse' }, ctx);
    assert.deepEqual([ice.inputs, ice.outputs], [[k('audit')], [{ namespace: 's3://lake/warehouse', name: 'db.audit' }]]);
    const src = connectorLineage({ 'connector.class': 'io.confluent.connect.jdbc.JdbcSourceConnector', 'connection.url': 'jdbc:mysql://m1:3307/shop', 'table.whitelist': 'orders', 'topic.prefix': 'mysql-' }, ctx);
    assert.deepEqual([src.inputs, src.outputs], [[{ namespace: 'mysql://m1:3307', name: 'shop.orders' }], [k('mysql-orders')]]);
    const dbz = connectorLineage(
      { 'connector.class': 'io.debezium.connector.postgresql.PostgresConnector', 'database.hostname': '127.0.0.1', 'database.port': '15432', 'database.dbname': 'shop', 'topic.prefix': 'pg', 'table.include.list': 'shop.orders' },
      ctx,
    );
    // Debezium's own integration names them the same way (the seed stack's capture): postgres://host:port + db.schema.table.
    assert.deepEqual([dbz.inputs, dbz.outputs], [[{ namespace: 'postgres://127.0.0.1:15432', name: 'shop.shop.orders' }], [k('pg.shop.orders')]]);
  });

  it('leaves a connector with its own OpenLineage integration to it, and never guesses an unknown class', () => {
    assert.equal(connectorLineage({ 'connector.class': 'io.debezium.connector.postgresql.PostgresConnector', 'openlineage.integration.enabled': 'true' }, ctx).status, 'SELF_REPORTED');
    for (const cls of ['com.example.MySink', '', 'constructor', '__proto__', 'toString']) {
      const u = connectorLineage({ 'connector.class': cls, topics: 'audit' }, ctx);
      assert.deepEqual([u.status, u.inputs, u.outputs], ['UNKNOWN', [], []], cls);
      assert.match(u.notes[0]!, /is not in the mapping table: its lineage is unknown/);
    }
  });

  it('matches topics.regex whole against the known topics, says what matched, and survives hostile patterns', () => {
    const m = connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', 'topics.regex': 'pg\\.shop\\..*', 's3.bucket.name': 'b' }, ctx);
    assert.deepEqual(m.inputs, [k('pg.shop.customers'), k('pg.shop.orders')]);
    assert.match(m.notes[0]!, /matches 2 known topic\(s\): pg\.shop\.customers, pg\.shop\.orders/);
    // Whole-name matching: "audit" does not match "aud".
    assert.deepEqual(connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', 'topics.regex': 'aud', 's3.bucket.name': 'b' }, ctx).inputs, []);
    const none = connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', 'topics.regex': 'nothing.*', 's3.bucket.name': 'b' }, ctx);
    assert.deepEqual([none.inputs, none.outputs], [[], []]);
    assert.match(none.notes[0]!, /matches none of the 4 topics Tributary knows under kafka:\/\/broker-1:9092/);
    // Catastrophic backtracking for a backtracking engine; RE2 answers in linear time.
    const many = { ...ctx, knownTopics: [`${'a'.repeat(50_000)}!`, ...Array.from({ length: MAX_REGEX_TOPICS + 5 }, (_, i) => `t${i}`)] };
    const started = Date.now();
    const evil = connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', 'topics.regex': '(a+)+$|t.*', 's3.bucket.name': 'b' }, many);
    assert.ok(Date.now() - started < 5_000, 'linear-time matching');
    assert.equal(evil.inputs.length, MAX_REGEX_TOPICS);
    assert.match(evil.notes.join('\n'), /only the first 1000 matches are inputs/);
    for (const [pattern, note] of [
      ['(?<=x)a', /is not an RE2 pattern/],
      ['(', /is not an RE2 pattern/],
      ['x'.repeat(20_000), /characters long: not compiled/],
    ] as const) {
      const r = connectorLineage({ 'connector.class': 'io.confluent.connect.s3.S3SinkConnector', 'topics.regex': pattern, 's3.bucket.name': 'b' }, ctx);
      assert.deepEqual(r.inputs, []);
      assert.match(r.notes[0]!, note);
    }
  });

  it('answers with its reasons for missing or garbage configuration, never throwing', () => {
    const bare = connectorLineage({ 'connector.class': 'io.confluent.connect.jdbc.JdbcSinkConnector' }, ctx);
    assert.deepEqual([bare.status, bare.inputs, bare.outputs], ['MAPPED', [], []]);
    assert.deepEqual(bare.notes, ['connection.url is not a JDBC URL', 'neither topics nor topics.regex is set']);
    const dbz = connectorLineage({ 'connector.class': 'io.debezium.connector.mysql.MySqlConnector' }, ctx);
    assert.deepEqual(dbz.notes, ['database.hostname is not set', 'topic.prefix is not set', 'table.include.list is not set: every captured table is unknown here']);
    assert.equal(jdbcNamespace('not a url'), null);
    assert.equal(jdbcNamespace(undefined), null);
    assert.deepEqual(jdbcNamespace('jdbc:sqlserver://sql-1;databaseName=x'), { namespace: 'sqlserver://sql-1:1433', database: null });
    assert.deepEqual(jdbcNamespace('jdbc:postgresql://h:6432/d%C3%A9mo'), { namespace: 'postgres://h:6432', database: 'démo' });
    // A percent sign that is no escape.
    assert.deepEqual(jdbcNamespace('jdbc:postgresql://h/100%'), { namespace: 'postgres://h:5432', database: '100%' });
  });
});
