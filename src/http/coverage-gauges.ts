import type { BreaksService } from '../lineage/breaks-service';
import type { CoverageService } from '../lineage/coverage-service';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { Repeat } from './repeat';

export interface GaugeSettings {
  /** Seconds between refreshes; 0: never. */
  intervalS: number;
  /** (namespace, engine) series at most; the rest are summed under namespace and engine "_other". */
  maxSeries: number;
}

/**
 * The lineage gauges of /metrics (coverage ratio and edges per job namespace and engine, lineage
 * breaks), computed on a schedule rather than per scrape: each refresh costs one coverage sum and
 * one breaks query, whatever the number of scrapers. Label cardinality is bounded by `maxSeries`
 * (the pairs with the most edges keep their labels). A failed refresh is logged and keeps the
 * previous values; tributary_lineage_gauges_refreshed_timestamp_seconds says how old they are.
 * Never runs two refreshes at once.
 */
export class CoverageGauges {
  private readonly schedule: Repeat;
  private running: Promise<void> | null = null;

  constructor(
    private readonly coverage: CoverageService,
    private readonly breaks: BreaksService,
    private readonly metrics: Metrics,
    private readonly settings: GaugeSettings,
    private readonly log: Logger,
  ) {
    this.schedule = new Repeat(() => this.refresh(), this.settings.intervalS * 1000);
  }

  /** Whether refreshes are scheduled (start was called, stop was not, intervalS > 0). */
  get scheduled(): boolean {
    return this.schedule.running;
  }

  /** Refreshes after `firstInMs`, then every intervalS. */
  start(firstInMs = 5_000): void {
    if (this.settings.intervalS > 0) this.schedule.start(firstInMs);
  }

  async stop(): Promise<void> {
    this.schedule.stop();
    await this.running;
  }

  /** One refresh now (or the one in flight). */
  refresh(): Promise<void> {
    this.running ??= this.compute().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async compute(): Promise<void> {
    try {
      const [groups, breaks] = await Promise.all([this.coverage.byNamespaceAndEngine(), this.breaks.breaks(null)]);
      const kept = groups.slice(0, this.settings.maxSeries);
      const rest = groups.slice(this.settings.maxSeries);
      const series = rest.length
        ? [...kept, rest.reduce((o, g) => ({ ...o, edges: o.edges + g.edges, columnLevel: o.columnLevel + g.columnLevel }), { namespace: '_other', engine: '_other', edges: 0, columnLevel: 0 })]
        : kept;
      const m = this.metrics;
      m.coverageRatio.reset();
      m.lineageEdges.reset();
      for (const g of series) {
        const labels = { namespace: g.namespace, engine: g.engine };
        m.coverageRatio.set(labels, g.edges === 0 ? 0 : g.columnLevel / g.edges);
        m.lineageEdges.set({ ...labels, granularity: 'column' }, g.columnLevel);
        m.lineageEdges.set({ ...labels, granularity: 'dataset' }, g.edges - g.columnLevel);
      }
      m.lineageBreaks.set({ kind: 'read_never_written' }, breaks.sources.length);
      m.lineageBreaks.set({ kind: 'written_never_read' }, breaks.sinks.length);
      m.lineageBreaks.set({ kind: 'probable_match' }, breaks.probableMatches.length);
      m.gaugesRefreshed.set(Date.now() / 1000);
    } catch (err) {
      this.log.warn('lineage gauges not refreshed; keeping the previous values', { error: err });
    }
  }
}
