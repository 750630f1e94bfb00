import { useEffect, useId, useRef, useState } from 'react';
import { datasetOfField, gql, idParts, type Kind } from '../api';
import { href, navigate } from '../route';

export interface Hit {
  id: string;
  kind: Kind;
  name: string;
  namespace: string | null;
  datasetId: string | null;
  match: string;
  /** The same dataset (or field) under its other names (symlinks), by id. */
  otherNames: string[];
}

export const SEARCH = `query Search($text: String!, $first: Int!, $after: String) {
  search(text: $text, first: $first, after: $after) { total capped hits { id kind name namespace datasetId match otherNames } pageInfo { endCursor hasNextPage } } }`;

/** "also <name> (<namespace>)" for each other name of a hit; null when it has none. */
export function AlsoNamed({ hit }: { hit: Hit }) {
  if (hit.otherNames.length === 0) return null;
  const dataset = (id: string) => (hit.kind === 'FIELD' ? datasetOfField(id) : id);
  const label = hit.otherNames.map((id) => `${idParts(dataset(id))[1]} (${idParts(dataset(id))[0]})`).join(', ');
  return (
    <span className="also-named" data-testid="also-named">
      {' '}
      also {label}
    </span>
  );
}

/** Where a hit opens: a dataset or job on the lineage canvas, a field in its trace. */
export function hitHref(h: Hit): string {
  if (h.kind === 'FIELD') return href('/trace', { node: h.id });
  return href('/lineage', { node: h.id });
}

/**
 * The search box (a combobox): type part of a name, pick with the arrow keys and Enter (Enter
 * without a pick shows every hit). "/" anywhere focuses it.
 */
export function SearchBox() {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.key === '/' && !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const q = text.trim();
    if (q.length === 0) {
      setHits([]);
      setError(null);
      return;
    }
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      gql<{ search: { hits: Hit[] } }>(SEARCH, { text: q, first: 10 }, ctl.signal).then(
        (d) => {
          setHits(d.search.hits);
          setActive(d.search.hits.length ? 0 : -1);
          setError(null);
        },
        (err) => ctl.signal.aborted || (setHits([]), setError((err as Error).message)),
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [text]);

  const go = (to: string) => {
    setOpen(false);
    setText('');
    input.current?.blur();
    navigate(to);
  };

  return (
    <div className="search" role="search">
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search datasets, jobs and fields
      </label>
      <input
        id={`${listId}-input`}
        ref={input}
        type="search"
        placeholder="Search datasets, jobs, fields  ( / )"
        autoComplete="off"
        role="combobox"
        aria-expanded={open && hits.length > 0}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          // The hits shown are those of the previous text until the new ones come: nothing is picked meanwhile.
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            // The last option (index hits.length) lists every hit.
            setActive((a) => Math.min(hits.length, a + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            if (active >= 0 && hits[active]) go(hitHref(hits[active]!));
            else if (text.trim()) go(href('/search', { q: text.trim() }));
          } else if (e.key === 'Escape') {
            setOpen(false);
            setActive(-1);
          }
        }}
      />
      {open && (hits.length > 0 || error) ? (
        <ul id={listId} role="listbox" className="search-results" aria-label="search results">
          {error ? <li className="error-inline">{error}</li> : null}
          {hits.map((h, i) => (
            <li
              key={h.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                go(hitHref(h));
              }}
            >
              <span className={`kind kind-${h.kind.toLowerCase()}`}>{h.kind.toLowerCase()}</span> <span className="hit-name">{h.name}</span>{' '}
              <span className="muted">{h.namespace}</span>
              <AlsoNamed hit={h} />
            </li>
          ))}
          {hits.length > 0 ? (
            <li
              id={`${listId}-${hits.length}`}
              role="option"
              aria-selected={active === hits.length}
              className={`all-hits${active === hits.length ? ' active' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                go(href('/search', { q: text.trim() }));
              }}
            >
              Every hit for “{text.trim()}” →
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
