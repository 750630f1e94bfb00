import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorEvent, COLLECTOR_PRODUCER, endEvent, parseListing, runIdOf, runState, type ConnectorSnapshot } from '../../src/kafka-connect/events';
import { validateEvent } from '../../src/ingest/validate';

const ctx = { kafkaNamespace: 'kafka://broker-1:9092', knownTopics: ['pg.shop.orders'] };
const archive: ConnectorSnapshot = {
  name: 'orders-archive',
  type: 'sink',
  config: { 'connector.class': 'org.apache.kafka.connect.file.FileStreamSinkConnector', topics: 'pg.shop.orders', file: '/archive/orders.jsonl', 'tasks.max': '1' },
  connectorState: 'RUNNING',
  connectorTrace: null,
  tasks: [{ id: 0, state: 'RUNNING' }],
};
const at = new Date('2026-12-02T03:00:00.000Z');

describe('Kafka Connect events', () => {
  it('a running sink is a RUNNING streaming job with its topic in and its file out, as ingestion validates it', () => {
    const { event, state, lineage } = connectorEvent('prod', archive, ctx, at);
    assert.equal(state, 'RUNNING');
    assert.equal(lineage.status, 'MAPPED');
    assert.equal(validateEvent(event).kind, 'RunEvent', 'valid for ingestion');
    assert.equal((event as any).producer, COLLECTOR_PRODUCER);
    assert.deepEqual((event as any).job.namespace, 'kafka-connect://prod');
    assert.deepEqual((event as any).job.facets.jobType.jobType, 'SINK_CONNECTOR');
    assert.deepEqual((event as any).inputs, [{ namespace: 'kafka://broker-1:9092', name: 'pg.shop.orders' }]);
    assert.deepEqual((event as any).outputs, [{ namespace: 'file', name: '/archive/orders.jsonl' }]);
    // The same snapshot at the same time: the same bytes.
    assert.equal(JSON.stringify(connectorEvent('prod', archive, ctx, at).event), JSON.stringify(event));
  });

  it('a failed task fails the run with the first line of its trace; PAUSED stays a running run that says so', () => {
    const failed = { ...archive, tasks: [{ id: 0, state: 'FAILED', trace: 'org.apache.kafka.connect.errors.ConnectException: disk full\n\tat X.y(X.java:1)' }] };
    const { event } = connectorEvent('prod', failed, ctx, at);
    assert.equal((event as any).eventType, 'FAIL');
    assert.equal((event as any).run.facets.errorMessage.message, 'org.apache.kafka.connect.errors.ConnectException: disk full');
    assert.equal(validateEvent(event).kind, 'RunEvent', 'valid for ingestion');
    assert.deepEqual(runState({ ...archive, connectorState: 'PAUSED' }), { state: 'PAUSED', trace: null });
    assert.equal((connectorEvent('prod', { ...archive, connectorState: 'PAUSED' }, ctx, at).event as any).eventType, 'RUNNING');
    assert.deepEqual(runState({ ...archive, connectorState: 'SOMETHING_NEW' }), { state: 'UNASSIGNED', trace: null });
  });

  it('a new configuration is a new run; a new password is not; the end of a run passes validation too', () => {
    const id = runIdOf('prod', archive);
    assert.notEqual(runIdOf('prod', { ...archive, config: { ...archive.config, file: '/elsewhere' } }), id);
    assert.notEqual(runIdOf('other', archive), id);
    assert.equal(runIdOf('prod', { ...archive, config: { ...archive.config, 'connection.password': 'new' } }), runIdOf('prod', { ...archive, config: { ...archive.config, 'connection.password': 'old' } }));
    // Key order is not configuration.
    assert.equal(runIdOf('prod', { ...archive, config: Object.fromEntries(Object.entries(archive.config).reverse()) }), id);
    for (const why of ['DELETED', 'RECONFIGURED'] as const) assert.equal(validateEvent(endEvent('prod', 'orders-archive', id, why, at)).kind, 'RunEvent', 'valid for ingestion');
    assert.equal((endEvent('prod', 'orders-archive', id, 'DELETED', at) as any).eventType, 'ABORT');
  });

  it('reads a listing as Connect answers it, and says what it skipped in a garbage one', () => {
    const listing = {
      'orders-archive': {
        info: { name: 'orders-archive', type: 'sink', config: { ...archive.config, 'errors.tolerance': 7 }, tasks: [] },
        status: { name: 'orders-archive', connector: { state: 'RUNNING', worker_id: 'w' }, tasks: [{ id: 0, state: 'RUNNING', worker_id: 'w' }], type: 'sink' },
      },
      broken: { status: {} },
      'nulls': null,
    };
    const { connectors, skipped } = parseListing(listing);
    assert.deepEqual(connectors.map((c) => [c.name, c.type, c.connectorState, c.tasks]), [['orders-archive', 'sink', 'RUNNING', [{ id: 0, state: 'RUNNING', trace: null }]]]);
    // A non-string config value is left out, not passed on.
    assert.equal('errors.tolerance' in connectors[0]!.config, false);
    assert.deepEqual(skipped.map((s) => s.name), ['broken', 'nulls']);
    for (const garbage of [null, [], 'x', 42]) assert.deepEqual(parseListing(garbage).connectors, []);
  });
});
