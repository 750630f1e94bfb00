import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ingestNdjson } from '../../src/ingest/ndjson';
import { docsOf, manifest } from '../support/corpus';
import { startService, type TestService } from '../support/app';
import { isolate, uniquePrefix } from '../support/isolate';
import { CORPUS_OUTCOMES } from '../support/policy';

let svc: TestService;
before(async () => {
  svc = await startService();
});
after(() => svc.close());

describe('the whole corpus through the NDJSON path into Neo4j', () => {
  it('stores every accepted event and rejects the others with the documented reasons', async () => {
    const prefix = uniquePrefix('all');
    const lines = manifest().flatMap((r) =>
      docsOf(r.file).map((d) => (d.value === undefined ? d.raw.replace(/\n/g, ' ') : JSON.stringify(isolate(d.value, prefix)))),
    );
    assert.equal(lines.length, 932);
    const summary = await ingestNdjson(Readable.from([lines.join('\n')]), svc.app.ingestor);
    const accepted = Object.entries(CORPUS_OUTCOMES).filter(([k]) => k.startsWith('accepted')).reduce((n, [, v]) => n + v, 0);
    // Two corpus files hold the same event: the second is a duplicate, not a second node.
    assert.equal(summary.stored + summary.duplicates, accepted);
    assert.equal(summary.duplicates, 1);
    const expected = Object.entries(CORPUS_OUTCOMES)
      .filter(([k]) => k.startsWith('rejected'))
      .map(([k, count]) => ({ reason: k.slice('rejected '.length), count }))
      .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1));
    assert.deepEqual(summary.reasons, expected);
  });
});
