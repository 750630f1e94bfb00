import type { CoverageGaps, CoverageReport } from '../lineage/coverage-service';

/**
 * The coverage embeds, as text: a badge in the shields.io flat style and a self-contained HTML
 * widget (inline styles and SVG, no script), for README files, catalog sidebars and dashboards.
 * Everything that comes from data or the request is escaped.
 */

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Approximate width of Verdana 11px text, as shields.io measures it (wide letters count more). */
const textWidth = (s: string) => [...s].reduce((w, c) => w + (/[MWmw@%]/.test(c) ? 10 : /[A-Z0-9#]/.test(c) ? 7.5 : /[ilj.,:;|!'()[\]]/.test(c) ? 3.5 : 6.5), 0);

export const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

/** Red below the first threshold, yellow below the second, else green; grey when there is nothing to measure. */
export function badgeColour(share: number, edges: number, [low, high]: [number, number]): string {
  if (edges === 0) return '#9f9f9f';
  return share < low ? '#e05d44' : share < high ? '#dfb317' : '#44cc11';
}

export function badgeSvg(label: string, share: number, edges: number, thresholds: [number, number]): string {
  const value = edges === 0 ? 'no edges' : pct(share);
  const [lw, vw] = [Math.round(textWidth(label) + 10), Math.round(textWidth(value) + 10)];
  const colour = badgeColour(share, edges, thresholds);
  const title = `${label}: ${value} of job → output edges with column-level lineage`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + vw}" height="20" role="img" aria-label="${xml(title)}">
<title>${xml(title)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${lw + vw}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/><rect width="${lw + vw}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${xml(label)}</text><text x="${lw / 2}" y="14">${xml(label)}</text>
<text x="${lw + vw / 2}" y="15" fill="#010101" fill-opacity=".3">${xml(value)}</text><text x="${lw + vw / 2}" y="14" class="value">${xml(value)}</text>
</g>
</svg>
`;
}

/** The widget: share, a sparkline of the weeks with edges, the top gaps, a link to the explorer's dashboard. */
export function widgetHtml(report: CoverageReport, gaps: CoverageGaps, explorerHref: string, thresholds: [number, number]): string {
  const o = report.overall;
  const points = report.trend.filter((b) => b.edges > 0).slice(-26);
  const [w, h] = [220, 40];
  const line = points
    .map((p, i) => `${i ? 'L' : 'M'}${points.length > 1 ? ((i * w) / (points.length - 1)).toFixed(1) : '0'},${(h - 2 - p.columnLevelShare * (h - 4)).toFixed(1)}`)
    .join(' ');
  const scope = report.scope === 'ALL' ? 'all jobs' : `${report.scope.toLowerCase()} ${report.value}`;
  const rows = gaps.gaps
    .slice(0, 5)
    .map((g) => `<li><span class="job">${xml(g.jobId.split(':').slice(2).join(':'))}</span> → ${xml(g.datasetId.split(':').slice(2).join(':'))} <span class="n">${g.downstreamDatasets}${g.impactTruncated ? '+' : ''} downstream</span></li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Lineage coverage: ${xml(scope)}</title>
<style>
body{margin:0;padding:10px 12px;font:13px/1.4 system-ui,sans-serif;color:#1b1f24;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e9ed;background:#0f1317}a{color:#5ca3ff}}
.share{font-size:28px;font-weight:700;color:${badgeColour(o.columnLevelShare, o.edges, thresholds)}}
.muted,.n{color:#6b7480;font-size:12px}ol{padding-left:18px;margin:6px 0}li{margin:2px 0;overflow-wrap:anywhere}.job{font-weight:600}
svg path{fill:none;stroke:#1a7f37;stroke-width:2}
</style></head><body>
<div class="muted">Lineage coverage · ${xml(scope)}</div>
<div class="share" data-share="${o.columnLevelShare}">${o.edges === 0 ? 'no edges' : pct(o.columnLevelShare)}</div>
<div class="muted">${o.columnLevel} of ${o.edges} job → output edges column level; ${pct(o.fieldShare)} of output fields have an input field</div>
${points.length > 1 ? `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="weekly column-level share, ${pct(points[0]!.columnLevelShare)} to ${pct(points[points.length - 1]!.columnLevelShare)}"><path d="${line}"/></svg>` : ''}
${rows ? `<div class="muted">Instrument next (${gaps.totalGaps} dataset-level-only edges):</div><ol>${rows}</ol>` : ''}
${gaps.totalLineageUnknown ? `<div class="muted">${gaps.totalLineageUnknown} job${gaps.totalLineageUnknown === 1 ? '' : 's'} with unknown lineage (no producer reports it)</div>` : ''}
<a href="${xml(explorerHref)}" target="_blank" rel="noopener">Open the coverage dashboard</a>
</body></html>
`;
}
