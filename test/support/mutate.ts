/**
 * Seeded mutations of OpenLineage events for the ingestion fuzz test: each mutation changes one
 * place of a copy (a key removed, a value of another type, a hostile string, a hostile key, deep
 * nesting, an array shuffled or emptied, an odd time or run id). Deterministic for a given random.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const HOSTILE_STRINGS = [
  '',
  ' padded ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uFEFFbom',
  'ü'.repeat(600),
  ':'.repeat(400),
  '%3A%25%ZZ',
  '🦀'.repeat(50),
  '\u202Eevil',
  'x'.repeat(20_000),
  '${json-unit.any-string}',
  '<script>alert(1)</script>',
  "'; MATCH (n) DETACH DELETE n //",
  '\\',
  '\n\r\t',
];
const HOSTILE_KEYS = ['', '\u0000', '__proto__', 'constructor', 'k'.repeat(300), 'facet.x', '`', 'a b', '日本'];
const ODD_TIMES = ['', 'now', '2024-13-45T99:99:99Z', '1e309', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999+14:00', '2024-02-30T00:00:00Z'];

/** Every container (object or array) in a value, with depth, found iteratively. */
function containers(root: Json): Json[] {
  const out: Json[] = [];
  const stack: Json[] = [root];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    out.push(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
  }
  return out;
}

function randomValue(random: () => number, pickString: () => string): Json {
  const kinds: (() => Json)[] = [
    () => null,
    () => random() < 0.5,
    () => Math.floor(random() * 1e6),
    () => (random() < 0.5 ? 1e308 * 10 : -0) || Number.MAX_SAFE_INTEGER + 2,
    pickString,
    () => [],
    () => ({}),
    () => [pickString(), 1, null],
    () => ({ [pickString().slice(0, 50)]: pickString() }),
  ];
  return kinds[Math.floor(random() * kinds.length)]!();
}

export function mutate(event: Record<string, unknown>, random: () => number): unknown {
  const copy = JSON.parse(JSON.stringify(event)) as Json;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const pickString = () => pick(HOSTILE_STRINGS);
  const times = 1 + Math.floor(random() * 3);
  for (let t = 0; t < times; t++) {
    const all = containers(copy);
    const target = pick(all);
    const op = Math.floor(random() * 9);
    if (Array.isArray(target)) {
      if (op < 3 && target.length > 0) target.splice(Math.floor(random() * target.length), 1);
      else if (op < 5) target.push(randomValue(random, pickString));
      else if (op < 7 && target.length > 0) target.push(JSON.parse(JSON.stringify(target[0])) as Json);
      else target.length = 0;
      continue;
    }
    const obj = target as { [k: string]: Json };
    const keys = Object.keys(obj);
    const key = keys.length > 0 ? pick(keys) : 'x';
    switch (op) {
      case 0:
        delete obj[key];
        break;
      case 1:
        obj[key] = randomValue(random, pickString);
        break;
      case 2:
        obj[key] = pickString();
        break;
      case 3:
        Object.defineProperty(obj, pick(HOSTILE_KEYS), { value: randomValue(random, pickString), enumerable: true, configurable: true, writable: true });
        break;
      case 4: {
        let deep: Json = obj[key] ?? 0;
        const levels = random() < 0.5 ? 70 : 2000;
        for (let i = 0; i < levels; i++) deep = [deep];
        obj[key] = deep;
        break;
      }
      case 5:
        if ('eventTime' in obj) obj.eventTime = pick(ODD_TIMES);
        else obj[key] = pickString();
        break;
      case 6:
        if ('runId' in obj) obj.runId = pick(['', 'NOT-A-UUID', '00000000-0000-0000-0000-000000000000', String(obj.runId).toUpperCase()]);
        else delete obj[key];
        break;
      default:
        obj[key] = random() < 0.5 ? [] : {};
    }
  }
  return copy;
}
