/**
 * Waits as long as the step begun at `startedMs` (Date.now()) took: after each step of a background
 * loop (plan warm-up, execution warm-up, plan refresh), so the loop takes at most about half a core.
 */
export function pauseAsLongAs(startedMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Date.now() - startedMs));
}
