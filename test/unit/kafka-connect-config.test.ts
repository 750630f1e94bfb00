import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config';
import { readConnectCredentials } from '../../src/kafka-connect/credentials';

/** TRIBUTARY_KAFKA_CONNECT_*: the clusters, their Kafka, their credentials; every mistake named before start. */
describe('Kafka Connect collector configuration', () => {
  const base = { TRIBUTARY_KAFKA_CONNECT_KAFKA: 'b1:9092,b2:9092' };

  it('is off without URLs; names clusters by host or by name=url; one bootstrap list for all or one per cluster', () => {
    assert.equal(loadConfig({}).kafkaConnect, null);
    const one = loadConfig({ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'http://connect-1:8083/' }).kafkaConnect!;
    assert.deepEqual(one.clusters, [{ name: 'connect-1:8083', url: 'http://connect-1:8083', bootstrap: 'b1:9092,b2:9092' }]);
    assert.deepEqual([one.intervalMs, one.timeoutMs, one.maxBodyBytes], [60_000, 10_000, 64 * 2 ** 20]);
    const two = loadConfig({
      TRIBUTARY_KAFKA_CONNECT_URLS: 'prod=https://connect.prod:8443, staging=http://10.0.0.7:8083',
      TRIBUTARY_KAFKA_CONNECT_KAFKA: 'prod=p1:9093,p2:9093; staging=s1:9092',
      TRIBUTARY_KAFKA_CONNECT_INTERVAL_S: '15',
    }).kafkaConnect!;
    assert.deepEqual(two.clusters.map((c) => [c.name, c.bootstrap]), [['prod', 'p1:9093,p2:9093'], ['staging', 's1:9092']]);
    assert.equal(two.intervalMs, 15_000);
    // KAFKA_BROKERS (the ingestion worker's Kafka) is the default.
    assert.equal(loadConfig({ KAFKA_BROKERS: 'k:9092', TRIBUTARY_KAFKA_CONNECT_URLS: 'http://c:8083' }).kafkaConnect!.clusters[0]!.bootstrap, 'k:9092');
  });

  it('refuses what cannot work, saying why', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TRIBUTARY_KAFKA_CONNECT_URLS: 'http://c:8083' }, /TRIBUTARY_KAFKA_CONNECT_KAFKA: needed.*REST API does not say/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'connect-1:8083' }, /not http:\/\/ or https:\/\//],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'not a url' }, /is not a URL/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'http://admin:secret@c:8083' }, /credentials belong in TRIBUTARY_KAFKA_CONNECT_CREDENTIALS/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'http://c:8083,http://c:8083' }, /two clusters named "c:8083"/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'pr/od=http://c:8083' }, /not a URL/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'prød=http://c:8083' }, /cluster name "prød"/],
      [{ TRIBUTARY_KAFKA_CONNECT_URLS: 'a=http://a:1,b=http://b:1', TRIBUTARY_KAFKA_CONNECT_KAFKA: 'a=k:9092' }, /no bootstrap servers for b/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: ' , ' }, /no URL/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'http://c:1', TRIBUTARY_KAFKA_CONNECT_INTERVAL_S: '0' }, /TRIBUTARY_KAFKA_CONNECT_INTERVAL_S/],
      [{ ...base, TRIBUTARY_KAFKA_CONNECT_URLS: 'http://c:1', TRIBUTARY_KAFKA_CONNECT_MAX_BYTES: 'lots' }, /TRIBUTARY_KAFKA_CONNECT_MAX_BYTES/],
    ];
    for (const [env, message] of cases) assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
  });

  it('reads credentials per cluster from a YAML file, and refuses a bad one without printing its secrets', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'connect-creds-'));
    const file = (text: string) => {
      const f = path.join(dir, `${Math.random()}.yaml`);
      fs.writeFileSync(f, text);
      return f;
    };
    try {
      assert.deepEqual([...readConnectCredentials(file('prod: {username: tributary, password: "p@ss:word"}\n'), ['prod', 'staging'])], [['prod', 'tributary:p@ss:word']]);
      const bad: [string, RegExp][] = [
        ['staging-typo: {username: u, password: hunter2}', /no cluster named staging-typo/],
        ['prod: {user: u, password: hunter2}', /expected <cluster name>: \{username, password\}/],
        ['prod: [unclosed', /not YAML/],
        ['a: &a [*a, *a]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n', /expected|not YAML/],
      ];
      for (const [text, message] of bad) {
        assert.throws(() => readConnectCredentials(file(text), ['prod', 'staging']), (err: Error) => err instanceof ConfigError && message.test(err.message) && !err.message.includes('hunter2'), text);
      }
      assert.throws(() => readConnectCredentials(path.join(dir, 'missing.yaml'), ['prod']), /cannot read the file \(ENOENT\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
