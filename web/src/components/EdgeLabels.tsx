import { BaseEdge, EdgeLabelRenderer, getBezierPath, useStore, type EdgeProps } from '@xyflow/react';
import { createContext, memo, useContext, useLayoutEffect, useSyncExternalStore } from 'react';
import { fitText, loopLevel, loopPath, placeLabels, runsBackwards, type PlacedLabel, type Rect } from './label-placement';

/**
 * Edge labels that never overlap each other or a node: every labelled edge reports where React
 * Flow draws it, the store places all labels at once (label-placement.ts) one frame later, and
 * each edge draws its label where it was placed, or none when its curve has no free place (its
 * title, shown on hover, still says it). The canvas says how many labels it left out. An edge that
 * runs backwards (a cycle) is drawn as a loop around the nodes (label-placement.ts loopLevel), at a
 * level the store chooses with the same nodes' boxes.
 */

export interface LabelledEdgeData extends Record<string, unknown> {
  title?: string;
  text?: string;
  /** Lower is placed first. */
  priority: number;
}

interface Geometry {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  text: string;
  priority: number;
}

export interface ShownLabel extends PlacedLabel {
  text: string;
  truncated: boolean;
}

/** The CSS font of `.edge-label` (styles.css), used to measure labels before they are drawn. */
const FONT = '10px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAD_X = 4;
const HEIGHT = 15;

let ctx: CanvasRenderingContext2D | null | undefined;
function measure(text: string): number {
  if (ctx === undefined) {
    ctx = document.createElement('canvas').getContext('2d');
    if (ctx) ctx.font = FONT;
  }
  // Without a 2D context (never in a browser): a generous estimate.
  return ctx ? Math.ceil(ctx.measureText(text).width) : text.length * 7;
}

export class LabelStore {
  private readonly geometry = new Map<string, Geometry>();
  private shown = new Map<string, ShownLabel | null>();
  private loops = new Map<string, number>();
  private obstacles: Rect[] = [];
  private readonly listeners = new Set<() => void>();
  private frame = 0;
  private status = { placed: 0, left: 0, version: 0 };

  report(id: string, g: Geometry): void {
    const old = this.geometry.get(id);
    if (old && old.sx === g.sx && old.sy === g.sy && old.tx === g.tx && old.ty === g.ty && old.text === g.text && old.priority === g.priority) return;
    this.geometry.set(id, g);
    this.schedule();
  }

  forget(id: string): void {
    if (this.geometry.delete(id)) this.schedule();
  }

  setObstacles(rects: Rect[]): void {
    this.obstacles = rects;
    this.schedule();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  labelOf = (id: string): ShownLabel | null => this.shown.get(id) ?? null;
  /** The level of a backward edge's loop, once placed. */
  loopOf = (id: string): number | null => this.loops.get(id) ?? null;
  statusOf = () => this.status;

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.place();
    });
  }

  private place(): void {
    const loops = new Map<string, number>();
    for (const [id, g] of this.geometry) if (runsBackwards(g.sx, g.tx)) loops.set(id, loopLevel(g.sx, g.sy, g.tx, g.ty, this.obstacles));
    this.loops = loops;
    const entries = [...this.geometry.entries()].filter(([, g]) => g.text).sort(([a, g], [b, h]) => g.priority - h.priority || (a < b ? -1 : a > b ? 1 : 0));
    const texts = new Map<string, { text: string; truncated: boolean }>();
    const requests = entries.map(([id, g]) => {
      // The room between the ends: forwards the gap between the nodes, backwards the loop's level stretch.
      const max = Math.abs(g.tx - g.sx) - 16 - 2 * PAD_X;
      const text = fitText(g.text, Math.max(0, max), measure);
      texts.set(id, { text, truncated: text !== g.text });
      return { id, sx: g.sx, sy: g.sy, tx: g.tx, ty: g.ty, loopY: loops.get(id), width: measure(text) + 2 * PAD_X, height: HEIGHT };
    });
    const at = placeLabels(
      requests.filter((r) => texts.get(r.id)!.text !== ''),
      this.obstacles,
    );
    const shown = new Map<string, ShownLabel | null>();
    let placed = 0;
    for (const [id] of entries) {
      const p = at.get(id) ?? null;
      if (p) placed++;
      shown.set(id, p ? { ...p, ...texts.get(id)! } : null);
    }
    this.shown = shown;
    this.status = { placed, left: entries.length - placed, version: this.status.version + 1 };
    for (const l of this.listeners) l();
  }
}

export const LabelContext = createContext<LabelStore | null>(null);

/** Inside <ReactFlow>: hands the store the nodes' boxes (measured by React Flow) as obstacles. */
export function LabelObstacles() {
  const store = useContext(LabelContext);
  const rects = useStore((s) => {
    const out: string[] = [];
    for (const n of s.nodeLookup.values()) {
      const p = n.internals.positionAbsolute;
      out.push(`${p.x},${p.y},${n.measured.width ?? 0},${n.measured.height ?? 0}`);
    }
    return out.join(';');
  });
  useLayoutEffect(() => {
    store?.setObstacles(
      rects
        ? rects.split(';').map((r) => {
            const [x, y, width, height] = r.split(',').map(Number) as [number, number, number, number];
            return { x, y, width, height };
          })
        : [],
    );
  }, [store, rects]);
  return null;
}

/** Below the canvas: how many labels were drawn and how many left out where edges crowd. */
export function LabelStatus() {
  const store = useContext(LabelContext)!;
  const status = useSyncExternalStore(store.subscribe, store.statusOf);
  if (status.version === 0) return <span hidden data-testid="edge-labels" data-placed="false" />;
  return (
    <span data-testid="edge-labels" data-placed="true" data-shown={status.placed} data-left={status.left} className={status.left ? 'label-status' : undefined} hidden={!status.left}>
      {status.left ? `${status.left} edge label${status.left === 1 ? '' : 's'} left out where edges crowd: hover an edge for its transformation, or zoom in.` : ''}
    </span>
  );
}

export const LabelledEdge = memo(function LabelledEdge(props: EdgeProps & { data?: LabelledEdgeData }) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, style, markerEnd, data } = props;
  const store = useContext(LabelContext);
  const loopY = useSyncExternalStore(store?.subscribe ?? noSubscribe, () => store?.loopOf(id) ?? null);
  const path =
    loopY !== null && runsBackwards(sourceX, targetX)
      ? loopPath(sourceX, sourceY, targetX, targetY, loopY)
      : getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition })[0];
  const text = data?.text ?? '';
  const priority = data?.priority ?? 9;
  useLayoutEffect(() => {
    store?.report(id, { sx: sourceX, sy: sourceY, tx: targetX, ty: targetY, text, priority });
  }, [store, id, sourceX, sourceY, targetX, targetY, text, priority]);
  useLayoutEffect(() => () => store?.forget(id), [store, id]);
  const label = useSyncExternalStore(store?.subscribe ?? noSubscribe, () => store?.labelOf(id) ?? null);
  return (
    <>
      {data?.title ? <title>{data.title}</title> : null}
      <BaseEdge id={id} path={path} style={style} markerEnd={markerEnd} />
      {label ? (
        <EdgeLabelRenderer>
          <div
            className="edge-label"
            data-edge={id}
            title={label.truncated ? text : undefined}
            style={{ transform: `translate(-50%, -50%) translate(${label.x}px, ${label.y}px)`, height: HEIGHT, padding: `0 ${PAD_X}px` }}
          >
            {label.text}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

const noSubscribe = () => () => undefined;
