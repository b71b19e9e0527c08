// The worker kinds: what each is and can do, in one place. Panes and
// components ask this module ("is this an agent?", "what is its label?",
// "where does its conversation switch to?") and never compare kind names;
// this is the only file of the SPA that spells them.
//
// A new kind is one entry here plus its pane module (panes/<view>/index.ts,
// registering under the entry's view). A second agent behind an existing
// kind (a chat driven by Codex: kind "sdk" with agent "codex") is one entry
// with `agent` set, listed before the kind's general entry.
import type { Worker } from './types';

export interface KindInfo {
  /** The API's kind (Worker.kind). */
  readonly kind: string;
  /** For a kind several agents share: the Worker's `agent` this entry is for (absent: any). */
  readonly agent?: string;
  /** What a person reads on the tab and in History: a word, not the API name. */
  readonly label: string;
  /** The "+" menu's item; absent: not offered there. */
  readonly addLabel?: string;
  /** The new-session form's agent choice; absent: not offered there. */
  readonly startLabel?: string;
  /** The pane module that shows it (panes/registry.ts registerPane(view, …)). */
  readonly view: string;
  /**
   * Drives the session's conversation. One such worker drives it at a time;
   * the others are the conversation's earlier views (read-only, in History).
   */
  readonly isAgent: boolean;
  /** A structured chat (messages by uuid, permission cards, a composer). */
  readonly isChat: boolean;
  /** How a socket resumes: after a message uuid, at a byte offset, or not at all. */
  readonly cursor: 'uuid' | 'offset' | 'none';
  /** The kind the conversation moves to from this one (POST /switch). */
  readonly switchTo?: string;
  /** The button that moves the conversation to this kind, and its tooltip. */
  readonly switchHere?: { readonly label: string; readonly title: string };
  /** The title of its pane's bar; absent: the worker's name. */
  readonly paneTitle?: string;
  /** What the pane shows until the program draws. */
  readonly startingText: string;
  /** An exited one can be started again in place. */
  readonly restartable: boolean;
  /** File links (a tool card's path) open in it. */
  readonly opensFiles: boolean;
  /** Alt+T adds one (the quick shell). */
  readonly altT?: boolean;
}

const kinds: readonly KindInfo[] = [
  {
    kind: 'sdk', agent: 'codex', label: 'Codex', addLabel: 'Codex chat', startLabel: 'Codex (chat)', view: 'chat',
    isAgent: true, isChat: true, cursor: 'uuid',
    startingText: 'Starting Codex…', restartable: false, opensFiles: false,
  },
  {
    kind: 'sdk', label: 'Chat', addLabel: 'Claude chat', startLabel: 'Claude (chat)', view: 'chat',
    isAgent: true, isChat: true, cursor: 'uuid', switchTo: 'pty-agent',
    switchHere: { label: 'Back to chat', title: 'Continue this conversation in the chat' },
    startingText: 'Starting Claude…', restartable: false, opensFiles: false,
  },
  {
    kind: 'pty-agent', label: 'Terminal', addLabel: 'Claude in a terminal', startLabel: 'Claude (terminal)', view: 'terminal',
    isAgent: true, isChat: false, cursor: 'offset', switchTo: 'sdk',
    switchHere: { label: 'Open in terminal', title: 'Continue this conversation in Claude’s terminal UI' },
    paneTitle: 'Claude (terminal UI)', startingText: 'Starting Claude in the terminal…', restartable: false, opensFiles: false,
  },
  {
    kind: 'terminal', label: 'Shell', addLabel: 'Shell', view: 'terminal',
    isAgent: false, isChat: false, cursor: 'offset',
    startingText: 'Starting the shell…', restartable: true, opensFiles: false, altT: true,
  },
  {
    kind: 'git-diff', label: 'Diff', addLabel: 'Git diff', view: 'diff',
    isAgent: false, isChat: false, cursor: 'none',
    startingText: 'Reading the diff…', restartable: false, opensFiles: false,
  },
  {
    kind: 'files', label: 'Files', addLabel: 'Files', view: 'files',
    isAgent: false, isChat: false, cursor: 'none',
    startingText: 'Reading the folder…', restartable: false, opensFiles: true,
  },
];

/** What this build knows of a kind (and agent); a kind it does not know gets a plain entry. */
export function kindInfo(kind: string, agent?: string | null): KindInfo {
  return kinds.find((k) => k.kind === kind && (k.agent === undefined || k.agent === agent))
    ?? { kind, label: kind, view: kind, isAgent: false, isChat: false, cursor: 'none', startingText: 'Starting…', restartable: false, opensFiles: false };
}

/** The entry of a worker (its kind, and its agent where the kind has several). */
export function workerKind(w: Pick<Worker, 'kind'> & { agent?: string | null }): KindInfo {
  return kindInfo(w.kind, w.agent);
}

/** Whether w drives (or drove) the session's conversation. */
export function isAgent(w: Pick<Worker, 'kind'>): boolean {
  return workerKind(w).isAgent;
}

/** Whether w is shown as a structured chat. */
export function isChat(w: Pick<Worker, 'kind'>): boolean {
  return workerKind(w).isChat;
}

/** The kinds the "+" menu offers, in its order (a kind's general entry before its other agents'). */
export function addableKinds(): readonly KindInfo[] {
  const all = kinds.filter((k) => k.addLabel !== undefined);
  return all.flatMap((k) => (k.agent !== undefined ? [] : [k, ...all.filter((o) => o.kind === k.kind && o.agent !== undefined)]));
}

/** The kind Alt+T adds, if any. */
export function quickKind(): KindInfo | undefined {
  return kinds.find((k) => k.altT === true);
}

/** The agents a new session can start with, in the form's order (the first is the default). */
export function startableAgents(): readonly KindInfo[] {
  const all = kinds.filter((k) => k.startLabel !== undefined);
  return [...all.filter((k) => k.agent === undefined), ...all.filter((k) => k.agent !== undefined)];
}

/** The value of POST /api/sessions' `agent` that starts k: its agent where the kind has several. */
export function agentValue(k: KindInfo): string {
  return k.agent ?? k.kind;
}

/** The kind that shows a session's files: file links (a tool card's path) open in it. */
export function fileKind(): KindInfo {
  const k = kinds.find((x) => x.opensFiles);
  if (k === undefined) throw new Error('no kind opens files');
  return k;
}

/** The session's worker that shows files (its Files tab), if it has one. */
export function fileOpener(workers: readonly Worker[]): Worker | undefined {
  return workers.find((w) => workerKind(w).opensFiles);
}

/**
 * The name a person reads for w: its own, except the API names older
 * servers gave by default ("sdk 2", "pty-agent", "git-diff"), which read
 * as the kind's label (an agent's number meant nothing: it counted switches).
 */
export function workerLabel(w: Pick<Worker, 'kind' | 'name'> & { agent?: string | null }): string {
  const info = workerKind(w);
  const name = w.name.trim();
  if (name === '') return info.label;
  if (name === w.kind) return info.label;
  const legacy = name.startsWith(`${w.kind} `) ? name.slice(w.kind.length + 1) : '';
  if (/^\d+$/.test(legacy)) return info.isAgent ? info.label : `${info.label} ${legacy}`;
  return name;
}

/**
 * The kind word to show beside a worker's name, or '' when the name says it
 * already ("Shell 2"): a shell named "setup" reads "setup · Shell".
 */
export function kindHint(w: Pick<Worker, 'kind' | 'name'> & { agent?: string | null }): string {
  const label = workerKind(w).label;
  const name = workerLabel(w);
  return name === label || name.startsWith(`${label} `) ? '' : label;
}
