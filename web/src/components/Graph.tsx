import { Background, Controls, Handle, MarkerType, MiniMap, Position, ReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { LabelContext, LabelledEdge, LabelObstacles, LabelStatus, LabelStore } from './EdgeLabels';

/**
 * The lineage canvas: entities laid out left to right by data flow (elkjs, layered), drawn with
 * React Flow. Views hand it plain nodes and edges; it knows nothing of the API.
 */

export interface GraphField {
  id: string;
  name: string;
  /** e.g. the traced field, a field of the root */
  marked?: boolean;
}

export interface GraphNode {
  id: string;
  kind: 'DATASET' | 'JOB';
  label: string;
  namespace: string;
  /** Other names of the same dataset (symlinks), shown under the label. */
  aliases?: string[];
  /** Column mode: the dataset's fields, each with handles for field edges. */
  fields?: GraphField[];
  root?: boolean;
  /** Column hint for large graphs: negative upstream, 0 the root, positive downstream (hops). */
  rank?: number;
  /** A short note on the node (e.g. "precision lost here", "more beyond"). */
  badge?: string;
  badgeTone?: 'loss' | 'info' | 'stop';
}

export type EdgeTone = 'column' | 'dataset' | 'plain' | 'field' | 'indirect' | 'loss' | 'collected' | 'declared';

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  /** Field ids when the edge joins two fields (column mode). */
  sourceField?: string;
  targetField?: string;
  tone: EdgeTone;
  label?: string;
  title?: string;
}

const WIDTH = 250;
const HEADER = 52;
const ROW = 22;
/** elkjs (1.4 MB) is loaded with the first canvas, not with the page. */
let elkLoading: Promise<{ layout: (g: ElkGraph) => Promise<ElkGraph> }> | null = null;
const loadElk = () => (elkLoading ??= import('elkjs/lib/elk.bundled.js').then((m) => new m.default()));
interface ElkGraph {
  id: string;
  layoutOptions?: Record<string, string>;
  children?: { id: string; width?: number; height?: number; x?: number; y?: number }[];
  edges?: { id: string; sources: string[]; targets: string[] }[];
}

const heightOf = (n: GraphNode) => HEADER + (n.aliases?.length ? 16 * n.aliases.length : 0) + (n.fields ? Math.max(1, n.fields.length) * ROW + 6 : 0);

/** Above this many nodes with rank hints, columns by rank instead of elkjs (linear time; elkjs took 0.3–1.2 s for 300–450 nodes, 3.4 s for 3,000, in a headless Chromium here). */
const ELK_MAX = 150;
const GAP_X = 110;
/** Between layers of nodes with fields: room for a field edge's transformation label. */
const GAP_X_FIELDS = 170;
const gapX = (nodes: GraphNode[]) => (nodes.some((n) => n.fields) ? GAP_X_FIELDS : GAP_X);
const GAP_Y = 24;

type Positions = Map<string, { x: number; y: number }>;

async function layout(nodes: GraphNode[], edges: GraphEdge[]): Promise<Positions> {
  if (nodes.length > ELK_MAX && nodes.every((n) => n.rank !== undefined)) return rankLayout(nodes, edges);
  return elkLayout(nodes, edges);
}

/**
 * Columns by rank, left to right; within a column, nodes ordered by the mean position of their
 * neighbours in the column before (one barycentre sweep), then by id.
 */
function rankLayout(nodes: GraphNode[], edges: GraphEdge[]): Positions {
  const columns = new Map<number, GraphNode[]>();
  for (const n of nodes) columns.set(n.rank!, [...(columns.get(n.rank!) ?? []), n]);
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    neighbours.set(e.target, [...(neighbours.get(e.target) ?? []), e.source]);
    neighbours.set(e.source, [...(neighbours.get(e.source) ?? []), e.target]);
  }
  const order = new Map<string, number>();
  const pos: Positions = new Map();
  const ranks = [...columns.keys()].sort((a, b) => a - b);
  const gap = gapX(nodes);
  ranks.forEach((rank, col) => {
    const score = (n: GraphNode) => {
      const known = (neighbours.get(n.id) ?? []).map((x) => order.get(x)).filter((v): v is number => v !== undefined);
      return known.length ? known.reduce((a, b) => a + b, 0) / known.length : Number.MAX_SAFE_INTEGER;
    };
    const column = columns.get(rank)!.map((n) => ({ n, s: score(n) })).sort((a, b) => a.s - b.s || (a.n.id < b.n.id ? -1 : 1));
    let y = 0;
    column.forEach(({ n }, i) => {
      order.set(n.id, i);
      pos.set(n.id, { x: col * (WIDTH + gap), y });
      y += heightOf(n) + GAP_Y;
    });
  });
  return pos;
}

async function elkLayout(nodes: GraphNode[], edges: GraphEdge[]): Promise<Positions> {
  const ids = new Set(nodes.map((n) => n.id));
  const pairs = new Set<string>();
  const elkEdges = edges
    .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
    .filter((e) => (pairs.has(`${e.source}>${e.target}`) ? false : (pairs.add(`${e.source}>${e.target}`), true)))
    .map((e, i) => ({ id: `e${i}`, sources: [e.source], targets: [e.target] }));
  const elk = await loadElk();
  const graph = await elk.layout({
    id: 'root',
    // React Flow draws the edges, so elkjs's routes are not used (POLYLINE is the cheapest); on
    // larger graphs fewer crossing-minimisation passes (measured: 450 nodes 1.7 s → 0.6 s).
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(gapX(nodes)),
      'elk.spacing.nodeNode': String(GAP_Y),
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.thoroughness': nodes.length > 150 ? '1' : '7',
      'elk.layered.crossingMinimization.greedySwitch.type': nodes.length > 150 ? 'OFF' : 'TWO_SIDED',
    },
    children: nodes.map((n) => ({ id: n.id, width: WIDTH, height: heightOf(n) })),
    edges: elkEdges,
  });
  return new Map((graph.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
}

const EntityNode = memo(function EntityNode({ data }: NodeProps<Node<{ node: GraphNode }>>) {
  const n = data.node;
  return (
    <div className={`entity entity-${n.kind.toLowerCase()}${n.root ? ' entity-root' : ''}`} style={{ width: WIDTH }}>
      <Handle type="target" position={Position.Left} />
      <div className="entity-head" title={`${n.namespace} ${n.label}`}>
        <span className="entity-kind" aria-hidden="true">
          {n.kind === 'JOB' ? '⚙' : '▦'}
        </span>
        <span className="entity-label">{n.label}</span>
        <div className="entity-ns">{n.namespace}</div>
        {n.aliases?.map((a) => (
          <div key={a} className="entity-alias" title="another name of this dataset (symlink)">
            ≡ {a}
          </div>
        ))}
        {n.badge ? <div className={`badge badge-${n.badgeTone ?? 'info'}`}>{n.badge}</div> : null}
      </div>
      {n.fields ? (
        <ul className="entity-fields">
          {n.fields.length === 0 ? <li className="muted">no fields known</li> : null}
          {n.fields.map((f) => (
            <li key={f.id} className={f.marked ? 'field-marked' : undefined} title={f.id}>
              <Handle type="target" id={`in:${f.id}`} position={Position.Left} className="field-handle" />
              {f.name}
              <Handle type="source" id={`out:${f.id}`} position={Position.Right} className="field-handle" />
            </li>
          ))}
        </ul>
      ) : null}
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

const nodeTypes = { entity: EntityNode };
const edgeTypes = { labelled: LabelledEdge };
/** Edge labels placed first: what the view is about, then the rest (INDIRECT, plain). */
const LABEL_PRIORITY: Record<EdgeTone, number> = { loss: 0, column: 1, field: 1, dataset: 2, collected: 2, declared: 2, plain: 3, indirect: 4 };

function fitNodes(nodes: GraphNode[], edges: GraphEdge[], focus?: string[]): { id: string }[] {
  if (focus) return focus.map((id) => ({ id }));
  const root = nodes.find((n) => n.root)?.id;
  if (!root) return nodes.map((n) => ({ id: n.id }));
  const near = new Set([root]);
  for (const e of edges) {
    if (e.source === root) near.add(e.target);
    if (e.target === root) near.add(e.source);
  }
  return [...near].map((id) => ({ id }));
}

const TONE_STYLE: Record<EdgeTone, { stroke: string; dash?: string; width: number }> = {
  column: { stroke: 'var(--column-level)', width: 2.5 },
  dataset: { stroke: 'var(--dataset-level)', width: 2.5, dash: '6 4' },
  plain: { stroke: 'var(--edge)', width: 1.5 },
  field: { stroke: 'var(--field-edge)', width: 1.5 },
  indirect: { stroke: 'var(--field-edge)', width: 1.2, dash: '4 4' },
  loss: { stroke: 'var(--loss)', width: 3, dash: '8 4' },
  collected: { stroke: 'var(--collected)', width: 2, dash: '2 4' },
  declared: { stroke: 'var(--declared)', width: 2, dash: '10 3 2 3' },
};

/**
 * `focus`: the nodes the first view fits (readable zoom; the rest is a pan or the minimap away);
 * default: the root and its neighbours.
 */
export function Graph({ nodes, edges, onOpen, label, focus }: { nodes: GraphNode[]; edges: GraphEdge[]; onOpen?: (id: string) => void; label: string; focus?: string[] }) {
  const [flow, setFlow] = useState<{ nodes: Node[]; edges: Edge[] } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // Remounts React Flow for each layout: its nodes are uncontrolled, so that its own selection
  // (a click, or Enter / Space on a focused node) works and reaches onSelectionChange.
  const [version, setVersion] = useState(0);
  const picked = useRef<string | null>(null);
  const onSelectionChange = useCallback(
    ({ nodes: chosen }: { nodes: Node[] }) => {
      const id = chosen.length === 1 ? chosen[0]!.id : null;
      if (id !== null && id !== picked.current) onOpen?.(id);
      picked.current = id;
    },
    [onOpen],
  );
  const [laidOut, setLaidOut] = useState(false);
  const [labels] = useState(() => new LabelStore());
  useEffect(() => {
    let live = true;
    setLaidOut(false);
    void layout(nodes, edges).then((pos) => {
      if (!live) return;
      const ids = new Set(nodes.map((n) => n.id));
      setFlow({
        nodes: nodes.map((n) => ({
          id: n.id,
          type: 'entity',
          position: pos.get(n.id) ?? { x: 0, y: 0 },
          data: { node: n },
          ariaLabel: `${n.kind === 'JOB' ? 'job' : 'dataset'} ${n.label} in ${n.namespace}${n.badge ? `, ${n.badge}` : ''}`,
          draggable: false,
          connectable: false,
        })),
        edges: edges
          .filter((e) => ids.has(e.source) && ids.has(e.target))
          .map((e) => {
            const s = TONE_STYLE[e.tone];
            return {
              id: e.id,
              type: 'labelled',
              source: e.source,
              target: e.target,
              sourceHandle: e.sourceField ? `out:${e.sourceField}` : null,
              targetHandle: e.targetField ? `in:${e.targetField}` : null,
              ariaLabel: e.title,
              className: `edge-${e.tone}`,
              markerEnd: { type: MarkerType.ArrowClosed, color: s.stroke, width: 16, height: 16 },
              style: { stroke: s.stroke, strokeWidth: s.width, strokeDasharray: s.dash },
              data: { title: e.title, text: e.label, priority: LABEL_PRIORITY[e.tone] },
            };
          }),
      });
      setVersion((v) => v + 1);
      setLaidOut(true);
    }, (err: Error) => live && setFailed(err?.message ?? String(err)));
    return () => {
      live = false;
    };
  }, [nodes, edges]);
  if (failed) return <div role="alert" className="error">The graph could not be laid out ({failed}). Reload the page, or lower the depth.</div>;
  if (!flow) return <div className="canvas canvas-empty">Laying out {nodes.length} nodes…</div>;
  return (
    <div className="canvas" role="region" aria-label={label} data-laid-out={laidOut ? 'true' : 'false'}>
      <LabelContext.Provider value={labels}>
      <ReactFlow
        key={version}
        defaultNodes={flow.nodes}
        defaultEdges={flow.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        fitView
        fitViewOptions={{ minZoom: 0.6, maxZoom: 1.1, nodes: fitNodes(nodes, edges, focus) }}
        minZoom={0.05}
        onlyRenderVisibleElements={flow.nodes.length > 200}
        // A click or, with the keyboard, Tab to a node and Enter or Space: selecting it opens its actions.
        onSelectionChange={onSelectionChange}
        nodesConnectable={false}
        proOptions={{ hideAttribution: false }}
      >
        <Background />
        <Controls showInteractive={false} />
        {flow.nodes.length > 30 ? <MiniMap pannable zoomable /> : null}
        <LabelObstacles />
      </ReactFlow>
      <LabelStatus />
      </LabelContext.Provider>
    </div>
  );
}
