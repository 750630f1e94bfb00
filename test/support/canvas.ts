import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/**
 * Geometry checks of the explorer's canvas, read from what the browser drew: edge labels apart,
 * backward edges clear of the nodes.
 */

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  text: string;
}
/**
 * Waits for the canvas to place its edge labels, then asserts that no two drawn labels overlap and
 * none covers a node (boxes as the browser lays them out); returns the labels' texts.
 */
export async function labelsApart(page: Page): Promise<{ texts: string[]; left: number }> {
  const status = page.getByTestId('edge-labels');
  await page.waitForSelector('[data-testid="edge-labels"][data-placed="true"]', { state: 'attached' });
  // Placement runs a frame after the last edge reports; let a second frame pass.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  // Runs in the page (a string: the test build has no DOM types).
  const boxes = (await page.evaluate(`(() => {
    const rect = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, text: e.innerText }; };
    return { labels: [...document.querySelectorAll('.edge-label')].map(rect), nodes: [...document.querySelectorAll('.react-flow__node')].map(rect) };
  })()`)) as { labels: Box[]; nodes: Box[] };
  const hit = (a: Box, b: Box) =>
    a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
  boxes.labels.forEach((l, i) => {
    for (const m of boxes.labels.slice(i + 1)) assert.ok(!hit(l, m), `labels "${l.text}" and "${m.text}" overlap: ${JSON.stringify([l, m])}`);
    for (const n of boxes.nodes) assert.ok(!hit(l, n), `label "${l.text}" covers a node: ${JSON.stringify([l, n.text.slice(0, 60)])}`);
  });
  return { texts: boxes.labels.map((l) => l.text), left: Number(await status.getAttribute('data-left')) };
}

interface Point {
  x: number;
  y: number;
}

/**
 * Samples every drawn edge along its path (screen coordinates) and asserts that each one that runs
 * backwards (drawn from right to left: a cycle) passes through no node, its own two included, away
 * from its ends; returns how many there were, so that a caller can assert the case was met.
 */
export async function backwardEdgesClearOfNodes(page: Page): Promise<number> {
  // Runs in the page (a string: the test build has no DOM types).
  const drawn = (await page.evaluate(`(() => {
    const nodes = [...document.querySelectorAll('.react-flow__node')].map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height, text: e.innerText.split('\\n')[0] };
    });
    const edges = [...document.querySelectorAll('.react-flow__edge')].map((edge) => {
      const path = edge.querySelector('path.react-flow__edge-path');
      const m = path.getScreenCTM();
      const length = path.getTotalLength();
      const points = Array.from({ length: 81 }, (_, i) => {
        const p = path.getPointAtLength((length * i) / 80);
        return { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
      });
      return { title: edge.querySelector('title')?.textContent ?? '', points };
    });
    return { nodes, edges };
  })()`)) as { nodes: Box[]; edges: { title: string; points: Point[] }[] };
  const inside = (p: Point, n: Box) => p.x > n.x + 2 && p.x < n.x + n.w - 2 && p.y > n.y + 2 && p.y < n.y + n.h - 2;
  const backward = drawn.edges.filter((e) => e.points[0]!.x > e.points[e.points.length - 1]!.x + 1);
  for (const e of backward) {
    for (const p of e.points.slice(2, -2)) {
      const hit = drawn.nodes.find((n) => inside(p, n));
      assert.ok(!hit, `the backward edge "${e.title}" passes through the node "${hit?.text}" at ${Math.round(p.x)},${Math.round(p.y)}`);
    }
  }
  return backward.length;
}
