// The colour theme: "system" follows prefers-color-scheme, or the user picks
// light or dark with the toggle (remembered in localStorage). The resolved
// theme goes on <html data-theme="light|dark">, which the stylesheets, the
// code-block colours of /highlight.css, the terminal and the diff follow;
// listeners hear every change (terminals repaint with the new palette).

export type ThemePref = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const prefKey = 'agentdesk.theme';
const listeners = new Set<(t: Theme) => void>();
let pref: ThemePref = readPref();
let query: MediaQueryList | null = null;

function readPref(): ThemePref {
  try {
    const v = localStorage.getItem(prefKey);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system'; // storage blocked: follow the system
  }
}

function systemTheme(): Theme {
  return query?.matches === true ? 'light' : 'dark';
}

/** The theme in effect now. */
export function activeTheme(): Theme {
  return pref === 'system' ? systemTheme() : pref;
}

export function themePref(): ThemePref {
  return pref;
}

/** Applies the saved preference and follows the system setting from now on. */
export function initTheme(): void {
  if (query === null && typeof matchMedia === 'function') {
    query = matchMedia('(prefers-color-scheme: light)');
    query.addEventListener('change', () => {
      if (pref === 'system') apply();
    });
  }
  apply();
}

export function setThemePref(p: ThemePref): void {
  pref = p;
  try {
    if (p === 'system') localStorage.removeItem(prefKey);
    else localStorage.setItem(prefKey, p);
  } catch {
    // storage blocked: the choice lasts for this page
  }
  apply();
}

/** Calls fn with the new theme at every change; returns the unsubscribe function. */
export function onThemeChange(fn: (t: Theme) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Sets the resolved theme on the page and tells the listeners (also when only the preference changed). */
function apply(): void {
  const t = activeTheme();
  const root = document.documentElement;
  root.dataset.theme = t;
  root.style.colorScheme = t;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta !== null) meta.content = t === 'light' ? '#f6f8fa' : '#12151c';
  for (const fn of [...listeners]) fn(t);
}
