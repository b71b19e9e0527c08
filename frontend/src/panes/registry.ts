// The pane registry: how a worker gets its view. A module registers a
// factory for a view (registerPane('chat', ...)); kinds.ts says which view
// shows each worker kind. The session view asks for a pane
// when a worker's tab is first opened, keeps it while the session view lives
// (hidden when another tab is selected), and disposes it when the worker goes.
//
// Pane modules are found automatically: every `panes/<name>/index.ts` is loaded
// at start-up (see panes/index.ts), so a new kind needs no edit elsewhere.
import type { Api } from '../api';
import { workerKind } from '../kinds';
import type { Session, Worker } from '../types';

/** A worker's view. el is appended to the pane area by the caller before show(). */
export interface Pane {
  el: HTMLElement;
  /** Became the visible tab: resume rendering, fit to size, take focus if sensible. */
  show(): void;
  /** Another tab is visible: stay connected, but hidden. */
  hide(): void;
  /** The worker or session is gone or the view is torn down: close sockets, free everything. */
  dispose(): void;
  /** Optional: the worker changed in the store (status, activity, exitCode, name...). */
  update?(worker: Worker, session: Session): void;
  /** Optional: move keyboard focus into the pane (Alt+P). */
  focus?(): void;
  /** Optional: show this file (a path absolute or relative to the session's directory). */
  openFile?(path: string): void;
  /** Optional: the agent's next permission mode (Alt+M). */
  cycleMode?(): void;
}

/** What a pane is built from. session and worker are snapshots at creation time. */
export interface PaneContext {
  session: Session;
  worker: Worker;
  api: Api;
}

export type PaneFactory = (ctx: PaneContext) => Pane;

const factories = new Map<string, PaneFactory>();

/** Registers a view (KindInfo.view). A later registration for the same view replaces it. */
export function registerPane(view: string, factory: PaneFactory): void {
  factories.set(view, factory);
}

/** The factory of a view, if any module registered one. */
export function paneFactory(view: string): PaneFactory | undefined {
  return factories.get(view);
}

/** Builds the pane for ctx.worker, or a "not available yet" placeholder for unknown kinds. */
export function createPane(ctx: PaneContext): Pane {
  const f = factories.get(workerKind(ctx.worker).view);
  return f === undefined ? placeholderPane(ctx) : f(ctx);
}

function placeholderPane(ctx: PaneContext): Pane {
  const el = document.createElement('div');
  el.className = 'pane pane-placeholder';
  el.hidden = true;
  const p = document.createElement('p');
  p.textContent = `The ${workerKind(ctx.worker).label} view is not available yet.`;
  el.append(p);
  return {
    el,
    show: () => {
      el.hidden = false;
    },
    hide: () => {
      el.hidden = true;
    },
    dispose: () => el.remove(),
  };
}
