/**
 * Dataset name normalisation (OpenLineage naming spec), so that engines that spell one dataset
 * differently meet on one node. Each rule that changes a name says why; the projection keeps the
 * original spelling and the reasons on the node (`rawNames`, `normalisations`), so a user can be
 * shown why two spellings became one.
 *
 * Rules, applied to the namespace unless said otherwise:
 *  - the scheme is lower-cased (`Kafka://` → `kafka://`), and so is a URI host;
 *  - `s3a://` and `s3n://` are `s3://` (Hadoop connector schemes for the same object store);
 *  - Kafka: protocol prefixes in the bootstrap list are dropped (`kafka://SASL_SSL://b:9093` →
 *    `kafka://b:9093`) and a list of brokers becomes its lowest `host:port` (the spec names one
 *    broker; taking the lowest keeps the choice independent of list order);
 *  - a trailing `/` is dropped from a namespace with a scheme, and from a name longer than `/`.
 */

export interface NormalisedName {
  namespace: string;
  name: string;
  /** Why the spelling changed; empty when it did not. */
  reasons: string[];
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s;
const KAFKA_PROTOCOLS = /^(PLAINTEXT|SSL|SASL_SSL|SASL_PLAINTEXT):\/\//i;

export function normaliseDatasetName(namespace: string, name: string): NormalisedName {
  const reasons: string[] = [];
  let ns = namespace.trim();
  let nm = name.trim();
  const m = SCHEME.exec(ns);
  if (m) {
    let scheme = m[1]!.toLowerCase();
    let rest = m[2]!;
    if (scheme !== m[1]) reasons.push(`scheme ${m[1]} is written ${scheme}`);
    if (scheme === 's3a' || scheme === 's3n') {
      reasons.push(`${scheme}:// is the Hadoop connector scheme for s3://`);
      scheme = 's3';
    }
    if (scheme === 'kafka') {
      const brokers = rest
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean);
      const stripped = brokers.map((b) => b.replace(KAFKA_PROTOCOLS, ''));
      if (stripped.some((b, i) => b !== brokers[i])) reasons.push('Kafka protocol prefix dropped from the bootstrap servers');
      const lowered = stripped.map((b) => b.toLowerCase());
      if (lowered.some((b, i) => b !== stripped[i])) reasons.push('Kafka broker host lower-cased');
      const chosen = [...new Set(lowered)].sort()[0] ?? '';
      if (lowered.length > 1) reasons.push(`bootstrap list of ${lowered.length} brokers named by its lowest, ${chosen}`);
      rest = chosen;
    } else {
      const slash = rest.indexOf('/');
      const host = slash < 0 ? rest : rest.slice(0, slash);
      const tail = slash < 0 ? '' : rest.slice(slash);
      if (host !== host.toLowerCase() && !host.includes('@')) {
        reasons.push('host lower-cased');
        rest = host.toLowerCase() + tail;
      }
    }
    if (rest.length > 1 && rest.endsWith('/')) {
      reasons.push('trailing / dropped from the namespace');
      rest = rest.replace(/\/+$/, '');
    }
    ns = `${scheme}://${rest}`;
  }
  if (nm.length > 1 && nm.endsWith('/')) {
    reasons.push('trailing / dropped from the name');
    nm = nm.replace(/\/+$/, '') || '/';
  }
  return { namespace: ns, name: nm, reasons };
}
