import { useEffect, useState, type ReactElement } from 'react';
import { token } from './api';
import { Link } from './components/common';
import { SearchBox } from './components/SearchBox';
import { useLocation } from './route';
import { CoverageView } from './views/Coverage';
import { Home, SearchPage } from './views/Home';
import { ImpactView } from './views/Impact';
import { LineageView } from './views/Lineage';
import { DatasetPage, JobPage, RunPage } from './views/NodePage';
import { TraceView } from './views/Trace';

type Theme = 'auto' | 'light' | 'dark';

const VIEWS: Record<string, (p: { loc: ReturnType<typeof useLocation> }) => ReactElement> = {
  '/': Home,
  '/search': SearchPage,
  '/lineage': LineageView,
  '/trace': TraceView,
  '/impact': ImpactView,
  '/coverage': CoverageView,
  '/dataset': DatasetPage,
  '/job': JobPage,
  '/run': RunPage,
};

export function App() {
  const loc = useLocation();
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('tributary.theme') as Theme) ?? 'auto');
  useEffect(() => {
    localStorage.setItem('tributary.theme', theme);
    if (theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  const View = VIEWS[loc.path];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Tributary
        </Link>
        <SearchBox />
        <nav aria-label="main">
          <Link to="/coverage">Coverage</Link>
        </nav>
        <TokenButton />
        <label className="theme">
          <span className="sr-only">Theme</span>
          <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)} aria-label="colour theme">
            <option value="auto">Auto</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </header>
      <main id="main" tabIndex={-1}>
        {View ? <View loc={loc} /> : <p role="alert">No view at {loc.path}. <Link to="/">Start here</Link>.</p>}
      </main>
    </>
  );
}

/** The bearer token for services that require one (kept in this tab only). */
function TokenButton() {
  const [set, setSet] = useState(() => token.get() !== null);
  return (
    <button
      type="button"
      className="token"
      onClick={() => {
        const value = window.prompt(set ? 'Bearer token (empty to forget it)' : 'Bearer token with the read scope', '');
        if (value === null) return;
        token.set(value.trim() || null);
        setSet(value.trim() !== '');
        window.location.reload();
      }}
    >
      {set ? 'Token ✓' : 'Token'}
    </button>
  );
}
