/**
 * Where the canvas draws edge labels so that no two overlap and none covers a node.
 *
 * Contract: every placed box lies on its edge's curve (the bezier React Flow draws, at some
 * parameter t; for an edge that runs backwards, the loop `loopPath` draws, on its level stretch),
 * intersects no other placed box and no obstacle (padded); a label that finds no free place on its
 * curve is left out (`null`): its edge keeps its title. Labels are placed in the order given
 * (callers put the important ones first); the answer depends only on the input.
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
  /** For an edge that runs backwards: the level of its loop (`loopLevel`); the label sits on it. */
  loopY?: number;
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

/**
 * An edge runs backwards when its target's left side is left of its source's right side: a cycle
 * (a job that reads the table it writes: a MERGE, an incremental model) or a field feeding another
 * field of its own dataset. React Flow's bezier would draw it through its own nodes.
 */
export const runsBackwards = (sx: number, tx: number) => tx < sx;

/** How far a loop reaches beyond its ends, and how far it keeps from the nodes it passes: half the layout's vertical gap (Graph.tsx GAP_Y). */
export const LOOP_REACH = 40;
export const LOOP_GAP = 12;

/**
 * The level of a backward edge's loop: the nearest height below both ends, or above them when
 * that detour is shorter by more than 2 · LOOP_GAP, where its level stretch from tx − LOOP_REACH
 * to sx + LOOP_REACH passes no obstacle closer than LOOP_GAP. Obstacles are the nodes' boxes, its
 * own two among them.
 */
export function loopLevel(sx: number, sy: number, tx: number, ty: number, obstacles: Rect[]): number {
  const lo = tx - LOOP_REACH;
  const hi = sx + LOOP_REACH;
  const inSpan = obstacles.filter((o) => o.x < hi && o.x + o.width > lo);
  const blocking = (y: number) => inSpan.find((o) => o.y - LOOP_GAP < y && y < o.y + o.height + LOOP_GAP);
  let below = Math.max(sy, ty) + LOOP_GAP;
  let above = Math.min(sy, ty) - LOOP_GAP;
  // Each step moves past one obstacle, so at most one step per obstacle.
  for (let o = blocking(below), i = 0; o && i <= inSpan.length; o = blocking(below), i++) below = o.y + o.height + LOOP_GAP;
  for (let o = blocking(above), i = 0; o && i <= inSpan.length; o = blocking(above), i++) above = o.y - LOOP_GAP;
  const detour = (y: number) => Math.abs(y - sy) + Math.abs(y - ty);
  // Nodes a pixel or two apart in height are a tie: loops go below alike.
  return detour(above) + 2 * LOOP_GAP < detour(below) ? above : below;
}

/** The SVG path of a backward edge: out of the source to the right, along `loopY`, into the target from the left. */
export function loopPath(sx: number, sy: number, tx: number, ty: number, loopY: number): string {
  const r = LOOP_REACH;
  return `M ${sx},${sy} C ${sx + r},${sy} ${sx + r},${loopY} ${sx},${loopY} L ${tx},${loopY} C ${tx - r},${loopY} ${tx - r},${ty} ${tx},${ty}`;
}

/** Where a label at parameter t sits: on the bezier, or on a loop's level stretch (t = 0 under the source end). */
export function curvePoint(l: Pick<LabelRequest, 'sx' | 'sy' | 'tx' | 'ty' | 'loopY'>, t: number): { x: number; y: number } {
  return l.loopY === undefined ? bezierPoint(l.sx, l.sy, l.tx, l.ty, t) : { x: l.sx + (l.tx - l.sx) * t, y: l.loopY };
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
      const p = curvePoint(l, t);
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
