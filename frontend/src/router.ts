// URL <-> view state. Paths: "/" (no session), "/s/<sid>", "/s/<sid>/w/<wid>",
// "/usage" (the usage page).
// The server answers index.html for any other non-/api, non-/ws path, so a reload
// lands on the same place.

export interface Route {
  sid: string | null;
  wid: string | null;
  /** A page that is not a session's. */
  page?: 'usage';
}

export function parseRoute(pathname: string): Route {
  if (/^\/usage\/?$/.test(pathname)) return { sid: null, wid: null, page: 'usage' };
  const m = /^\/s\/([^/]+)(?:\/w\/([^/]+))?\/?$/.exec(pathname);
  if (m === null) return { sid: null, wid: null };
  return { sid: safeDecode(m[1] ?? ''), wid: m[2] === undefined ? null : safeDecode(m[2]) };
}

export function routePath(r: Route): string {
  if (r.page === 'usage') return '/usage';
  if (r.sid === null) return '/';
  const s = `/s/${encodeURIComponent(r.sid)}`;
  return r.wid === null ? s : `${s}/w/${encodeURIComponent(r.wid)}`;
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Keeps the current route, and tells its listener on every change (also Back/Forward). */
export class Router {
  private route: Route;

  constructor(private readonly onChange: (r: Route) => void) {
    this.route = parseRoute(location.pathname);
    window.addEventListener('popstate', this.onPop);
  }

  get current(): Route {
    return this.route;
  }

  /** Goes to r: a new history entry, or (replace) the current one rewritten. */
  go(r: Route, replace = false): void {
    const path = routePath(r);
    if (path !== location.pathname) {
      if (replace) history.replaceState(null, '', path);
      else history.pushState(null, '', path);
    }
    const changed = r.sid !== this.route.sid || r.wid !== this.route.wid || r.page !== this.route.page;
    this.route = r;
    if (changed) this.onChange(r);
  }

  dispose(): void {
    window.removeEventListener('popstate', this.onPop);
  }

  private readonly onPop = (): void => {
    this.route = parseRoute(location.pathname);
    this.onChange(this.route);
  };
}

/** True for a plain left click that the SPA should handle itself (not a new tab). */
export function isPlainClick(ev: MouseEvent): boolean {
  return ev.button === 0 && !ev.metaKey && !ev.ctrlKey && !ev.shiftKey && !ev.altKey;
}
