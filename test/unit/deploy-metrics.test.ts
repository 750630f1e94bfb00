import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { Metrics } from '../../src/metrics';

const root = path.resolve(__dirname, '..', '..', '..');
const files = ['deploy/grafana/tributary-lineage.json', 'deploy/prometheus/tributary-alerts.yml'];

describe('the shipped Grafana dashboard and alert rules', () => {
  it('parse, and every tributary_ metric they reference exists with the labels they use', async () => {
    const metrics = new Metrics();
    const known = new Map((await metrics.registry.getMetricsAsJSON()).map((m) => [m.name, m]));
    const labelsOf = (name: string) => new Set(((metrics.registry.getSingleMetric(name) as unknown as { labelNames?: string[] })?.labelNames ?? []));
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      if (file.endsWith('.json')) JSON.parse(text);
      else assert.ok(parse(text).groups.length > 0);
      const used = [...text.matchAll(/\b(tributary_[a-z_]+)(\{[^}]*\})?/g)];
      assert.ok(used.length > 3, `${file} references metrics`);
      for (const [, name, selector] of used) {
        assert.ok(known.has(name!), `${file}: ${name} is not a metric of /metrics`);
        for (const [, label] of (selector ?? '').matchAll(/([a-z_]+)\s*(=~|!=|=)/g)) {
          assert.ok(labelsOf(name!).has(label!), `${file}: ${name} has no label ${label}`);
        }
      }
    }
  });
});
