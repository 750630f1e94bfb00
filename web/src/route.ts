import { useEffect, useState, type MouseEvent } from 'react';

/**
 * The URL holds the whole view state (path = view, query = its parameters), so any view is a
 * permalink: copying the address bar into a ticket opens the same view. Navigation uses the
 * History API; the server answers every view path with the explorer's page.
 */

export interface Location {
  path: string;
  params: URLSearchParams;
}

const read = (): Location => ({ path: window.location.pathname, params: new URLSearchParams(window.location.search) });
const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function useLocation(): Location {
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const update = () => setLoc(read());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return loc;
}

/** The href of a view with its parameters (empty and null values left out). */
export function href(path: string, params: Record<string, string | number | boolean | null | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '' && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export function navigate(to: string, replace = false): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((l) => l());
  if (!replace) window.scrollTo(0, 0);
}

/** Click handler for in-app links: plain clicks navigate in place; modified clicks open as the browser would. */
export function follow(e: MouseEvent<HTMLAnchorElement>): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(e.currentTarget.getAttribute('href')!);
}

/** An integer parameter within [min, max], else the default. */
export function intParam(params: URLSearchParams, key: string, fallback: number, min: number, max: number): number {
  const n = Number(params.get(key));
  return params.has(key) && Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}
