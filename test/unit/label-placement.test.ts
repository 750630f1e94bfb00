import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadWebModule } from '../support/web-module';

/** web/src/components/label-placement.ts (its types only are imported: the code is loaded on the fly). */
type Placement = typeof import('../../web/src/components/label-placement');
type LabelRequest = import('../../web/src/components/label-placement').LabelRequest;
const { bezierPoint, fitText, placeLabels } = loadWebModule<Placement>('components/label-placement.ts');

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

  it('fits a label into the room it has, with an ellipsis', () => {
    const width = (s: string) => s.length * 6;
    assert.equal(fitText('AGGREGATION', 100, width), 'AGGREGATION');
    assert.equal(fitText('INDIRECT, GROUP_BY, FILTER', 60, width), 'INDIRECT,…');
    assert.equal(fitText('AGGREGATION', 3, width), '');
  });
});
