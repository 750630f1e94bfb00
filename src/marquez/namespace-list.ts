/**
 * Marquez's namespace list, answered from memory between changes. Marquez's web UI asks for it on
 * every page it shows, and its answer is a few rows: a Neo4j round trip (about 2 ms here, most of
 * it Bolt and the loopback socket) cost more than Marquez's whole answer from PostgreSQL.
 *
 * Contract: an answer is never older than the last projection transaction this process finished
 * (the projection writer's `finished` count moved: the copy is dropped), so a client that waited for
 * `Tributary-Wait: projected` sees its namespaces at once; changes made by other processes (separate
 * ingestion workers beside an API replica) show within `maxAgeMs`. A store with more than `cap`
 * namespaces is not kept: every page is read from the graph as before.
 */
export interface NamespaceRow {
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface NamespaceListOptions {
  /** Every namespace in name order, at most `limit` of them. */
  load: (limit: number) => Promise<NamespaceRow[]>;
  /** Moves whenever this process may have changed the namespaces (ProjectionWriter.finished). */
  generation: () => number;
  maxAgeMs?: number;
  cap?: number;
  now?: () => number;
}

interface Copy {
  rows: NamespaceRow[];
  generation: number;
  at: number;
}

export const NAMESPACE_LIST_MAX_AGE_MS = 5_000;
export const NAMESPACE_LIST_CAP = 1_000;

export class NamespaceList {
  private copy: Copy | null = null;
  /** The load in flight, shared by the requests that missed meanwhile while no projection finished. */
  private loading: { generation: number; rows: Promise<NamespaceRow[] | null> } | null = null;
  private readonly maxAgeMs: number;
  private readonly cap: number;
  private readonly now: () => number;

  constructor(private readonly o: NamespaceListOptions) {
    this.maxAgeMs = o.maxAgeMs ?? NAMESPACE_LIST_MAX_AGE_MS;
    this.cap = o.cap ?? NAMESPACE_LIST_CAP;
    this.now = o.now ?? Date.now;
  }

  /** Every namespace in name order, or null when there are more than `cap` (read the page from the graph). */
  async all(): Promise<NamespaceRow[] | null> {
    const copy = this.copy;
    if (copy && copy.generation === this.o.generation() && this.now() - copy.at < this.maxAgeMs) return copy.rows;
    const generation = this.o.generation();
    if (this.loading?.generation === generation) return this.loading.rows;
    const loading = { generation, rows: this.load(generation) };
    this.loading = loading;
    return loading.rows.finally(() => {
      if (this.loading === loading) this.loading = null;
    });
  }

  private async load(generation: number): Promise<NamespaceRow[] | null> {
    const at = this.now();
    const rows = await this.o.load(this.cap + 1);
    if (rows.length > this.cap) {
      this.copy = null;
      return null;
    }
    // Kept only when no projection finished while it was read: the rows might predate it.
    if (generation === this.o.generation()) this.copy = { rows, generation, at };
    return rows;
  }
}
