import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './corpus';

/**
 * The events `npm run seed-stack` captured (test/fixtures/seed-stack/: Debezium, openlineage-flink
 * and openlineage-spark, real output), made unique per delivery so that several deliveries share
 * one database: the work folder of the capture becomes `/seed-<tag>`, its two host names (127.0.0.1
 * and localhost, one Kafka broker under two listener names) `h1-<tag>` and `h2-<tag>`, the job
 * namespaces and the Iceberg catalog get the tag, and every UUID (run ids, parent runs) is replaced
 * by one derived from it and the tag. Nothing else changes: the events keep their shapes, facets and
 * order. `label` turns a delivery's ids back into the capture's spelling with placeholders
 * (<wd> for the work folder, <h1>, <h2>, the catalog `lake.`), so answers of two deliveries compare
 * equal; `name` spells a labelled string (a suggested rule, say) for the delivery.
 */
export interface SeedDelivery {
  tag: string;
  /** In capture order: Debezium, Flink, Spark (each file in its own order). */
  events: Record<string, unknown>[];
  /** The delivery's spelling of a capture string written with placeholders (<wd>, <h1>, <h2>, <t>). */
  name(text: string): string;
  /** The delivery's spelling of raw captured text (another capture of the run: connect-rest.json). */
  spell(raw: string): string;
  label<T>(value: T): T;
}

const dir = path.join(repoRoot, 'test', 'fixtures', 'seed-stack');
export const seedManifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
  workDir: string;
  producers: { file: string; producers: string[]; events: number }[];
};
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const JOB_NAMESPACES = ['debezium', 'flink-streaming', 'spark-batch'];

const uuidFor = (tag: string, uuid: string) => {
  const h = createHash('sha256').update(`${tag}/${uuid.toLowerCase()}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export function seedDelivery(tag: string): SeedDelivery {
  const pairs: [string, string][] = [
    [seedManifest.workDir, `/seed-${tag}`],
    ['127.0.0.1', `h1-${tag}`],
    ['localhost', `h2-${tag}`],
    ['lake.shop.', `lake${tag}.shop.`],
  ];
  const rewrite = (line: string) => {
    let out = pairs.reduce((acc, [from, to]) => acc.split(from).join(to), line);
    for (const ns of JOB_NAMESPACES) out = out.split(`"namespace":"${ns}"`).join(`"namespace":"${ns}-${tag}"`);
    return out.replace(UUID, (u) => uuidFor(tag, u));
  };
  const events = seedManifest.producers.flatMap((p) =>
    fs
      .readFileSync(path.join(dir, p.file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(rewrite(line)) as Record<string, unknown>),
  );
  const back: [string, string][] = [
    [`/seed-${tag}`, '<wd>'],
    [`h1-${tag}`, '<h1>'],
    [`h2-${tag}`, '<h2>'],
    [`lake${tag}.`, 'lake.'],
    ...JOB_NAMESPACES.map((ns): [string, string] => [`${ns}-${tag}`, ns]),
  ];
  const text = (s: string) => back.reduce((acc, [from, to]) => acc.split(from).join(to), s);
  const walk = (v: unknown): unknown =>
    typeof v === 'string' ? text(v) : Array.isArray(v) ? v.map(walk) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) : v;
  const forward: [string, string][] = [
    ['<wd>', `/seed-${tag}`],
    ['<h1>', `h1-${tag}`],
    ['<h2>', `h2-${tag}`],
    ['<t>', tag],
    ['lake.shop.', `lake${tag}.shop.`],
  ];
  return {
    tag,
    events,
    name: (s) => forward.reduce((acc, [from, to]) => acc.split(from).join(to), s),
    spell: rewrite,
    label: <T>(value: T) => walk(value) as T,
  };
}
