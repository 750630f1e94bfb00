/**
 * Where the canvas draws edge labels so that no two overlap and none covers a node.
 *
 * Contract: every placed box lies on its edge's curve (the bezier React Flow draws, at some
 * parameter t), intersects no other placed box and no obstacle (padded); a label that finds no free
 * place on its curve is left out (`null`): its edge keeps its title. Labels are placed in the order
 * given (callers put the important ones first); the answer depends only on the input.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelRequest {
  id: string;
  /** Where the edge leaves its source (right side) and enters its target (left side). */
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  /** The label's box, text included. */
  width: number;
  height: number;
}

export interface PlacedLabel {
  x: number;
  y: number;
  /** The curve parameter the label sits at (0 source, 1 target). */
  t: number;
}

/** Tried in this order: the middle first, then outwards on both sides. */
const CANDIDATES = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82];
/** Space kept between a label and anything else, px. */
const PAD = 3;

/**
 * React Flow's default edge (getBezierPath, curvature 0.25) from a right-side source handle to a
 * left-side target handle: control points at half the horizontal distance, or, for a backward
 * edge, 0.25 · 25 · √distance beyond each end.
 */
export function bezierPoint(sx: number, sy: number, tx: number, ty: number, t: number): { x: number; y: number } {
  const offset = (d: number) => (d >= 0 ? 0.5 * d : 0.25 * 25 * Math.sqrt(-d));
  const c1x = sx + offset(tx - sx);
  const c2x = tx - offset(tx - sx);
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * sx + b * c1x + c * c2x + d * tx, y: a * sy + b * sy + c * ty + d * ty };
}

const overlaps = (p: Rect, q: Rect) => p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
const padded = (r: Rect): Rect => ({ x: r.x - PAD, y: r.y - PAD, width: r.width + 2 * PAD, height: r.height + 2 * PAD });

export function placeLabels(labels: LabelRequest[], obstacles: Rect[]): Map<string, PlacedLabel | null> {
  const blocked = obstacles.map(padded);
  const placed: Rect[] = [];
  const out = new Map<string, PlacedLabel | null>();
  for (const l of labels) {
    let at: PlacedLabel | null = null;
    for (const t of CANDIDATES) {
      const p = bezierPoint(l.sx, l.sy, l.tx, l.ty, t);
      const box = { x: p.x - l.width / 2, y: p.y - l.height / 2, width: l.width, height: l.height };
      const wide = padded(box);
      if (blocked.some((o) => overlaps(wide, o)) || placed.some((o) => overlaps(wide, o))) continue;
      placed.push(box);
      at = { x: p.x, y: p.y, t };
      break;
    }
    out.set(l.id, at);
  }
  return out;
}

/** The longest prefix of `text` (with "…") whose measured width fits `max`; the whole text if it fits. */
export function fitText(text: string, max: number, measure: (s: string) => number): string {
  if (measure(text) <= max) return text;
  for (let n = text.length - 1; n > 0; n--) {
    const s = `${text.slice(0, n).trimEnd()}…`;
    if (measure(s) <= max) return s;
  }
  return '';
}
