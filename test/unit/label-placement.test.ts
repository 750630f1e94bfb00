import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWebModule } from '../support/web-module';

/** web/src/components/label-placement.ts (its types only are imported: the code is loaded on the fly). */
type Placement = typeof import('../../web/src/components/label-placement');
type LabelRequest = import('../../web/src/components/label-placement').LabelRequest;
const { bezierPoint, fitText, loopLevel, loopPath, placeLabels, runsBackwards, LOOP_GAP } = loadWebModule<Placement>('components/label-placement.ts');

const overlaps = (p: { x: number; y: number; width: number; height: number }, q: typeof p) =>
  p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;

describe('edge label placement', () => {
  it('follows React Flow\'s bezier: the ends at t = 0 and 1, the middle halfway', () => {
    assert.deepEqual(bezierPoint(0, 0, 100, 40, 0), { x: 0, y: 0 });
    assert.deepEqual(bezierPoint(0, 0, 100, 40, 1), { x: 100, y: 40 });
    assert.deepEqual(bezierPoint(0, 0, 100, 40, 0.5), { x: 50, y: 20 });
  });

  it('never lets two labels or a label and an obstacle overlap; labels with no free place are left out', () => {
    // Twelve edges converging on one target handle from twelve rows of a source node.
    const labels: LabelRequest[] = Array.from({ length: 12 }, (_, i) => ({ id: `e${i}`, sx: 250, sy: 60 + 22 * i, tx: 420, ty: 100, width: 70, height: 15 }));
    const nodes = [
      { x: 0, y: 0, width: 250, height: 400 },
      { x: 420, y: 60, width: 250, height: 80 },
    ];
    const at = placeLabels(labels, nodes);
    const boxes = labels.flatMap((l) => {
      const p = at.get(l.id);
      return p ? [{ x: p.x - l.width / 2, y: p.y - l.height / 2, width: l.width, height: l.height }] : [];
    });
    assert.ok(boxes.length >= 3 && boxes.length < 12, `placed ${boxes.length}`);
    boxes.forEach((b, i) => {
      for (const c of boxes.slice(i + 1)) assert.ok(!overlaps(b, c));
      for (const n of nodes) assert.ok(!overlaps(b, n));
    });
    assert.equal(at.size, 12, 'every label gets an answer (a place or null)');
    // The first label takes the middle of its curve.
    assert.equal(at.get('e0')!.t, 0.5);
  });

  it('gives the same answer for the same input', () => {
    const labels: LabelRequest[] = [
      { id: 'a', sx: 0, sy: 0, tx: 400, ty: 0, width: 60, height: 15 },
      { id: 'b', sx: 0, sy: 5, tx: 400, ty: 5, width: 60, height: 15 },
    ];
    assert.deepEqual([...placeLabels(labels, [])], [...placeLabels(labels, [])]);
    assert.notEqual(placeLabels(labels, []).get('b'), null, 'the second label slides along its curve');
  });

  it('routes an edge that runs backwards around the nodes its loop passes, below unless above is nearer', () => {
    // A job (left) writes a table (right) and reads it back: the read edge leaves the table's right
    // side and enters the job's left side, both handles at y = 25 of 50-high nodes.
    const job = { x: 0, y: 0, width: 250, height: 50 };
    const table = { x: 360, y: 0, width: 250, height: 50 };
    assert.ok(runsBackwards(610, 0) && !runsBackwards(250, 360));
    assert.equal(loopLevel(610, 25, 0, 25, [job, table]), 50 + LOOP_GAP, 'just below both nodes');
    // A node 24 px below the table (the layout's gap): the loop fits between them, in the middle.
    const under = { x: 360, y: 74, width: 250, height: 50 };
    assert.equal(loopLevel(610, 25, 0, 25, [job, table, under]), 50 + LOOP_GAP);
    // A node 10 px below: no room, so the loop goes above, the nearer side now.
    const close = { x: 360, y: 60, width: 250, height: 300 };
    assert.equal(loopLevel(610, 25, 0, 25, [job, table, close]), -LOOP_GAP);
    // Nodes outside the loop's horizontal reach do not move it.
    const far = { x: 2000, y: 55, width: 250, height: 50 };
    assert.equal(loopLevel(610, 25, 0, 25, [job, table, far]), 50 + LOOP_GAP);
    // The path starts and ends at the handles and runs along the level it was given.
    assert.match(loopPath(610, 25, 0, 25, 62), /^M 610,25 C .* L 0,62 C .* 0,25$/);
  });

  it('puts the label of a backward edge on its loop, clear of the nodes', () => {
    const nodes = [
      { x: 0, y: 0, width: 250, height: 50 },
      { x: 360, y: 0, width: 250, height: 50 },
    ];
    const loopY = loopLevel(610, 25, 0, 25, nodes);
    const at = placeLabels([{ id: 'read', sx: 610, sy: 25, tx: 0, ty: 25, loopY, width: 80, height: 15 }], nodes).get('read');
    assert.ok(at, 'placed');
    assert.equal(at.y, loopY);
    assert.ok(at.x > 0 && at.x < 610);
  });

  it('fits a label into the room it has, with an ellipsis', () => {
    const width = (s: string) => s.length * 6;
    assert.equal(fitText('AGGREGATION', 100, width), 'AGGREGATION');
    assert.equal(fitText('INDIRECT, GROUP_BY, FILTER', 60, width), 'INDIRECT,…');
    assert.equal(fitText('AGGREGATION', 3, width), '');
  });
});
