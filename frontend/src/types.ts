// Shared shapes of the public contract (/work/shared/docs/API.md, v1).
// Fields marked "always present" there are non-optional here; kind-specific
// fields are optional because only some kinds carry them.

/** An API worker kind; kinds.ts says which ones this build knows and what each can do. */
export type WorkerKind = string;
export type WorkerStatus = 'starting' | 'running' | 'stopped' | 'exited' | 'error';
export type Activity = 'active' | 'idle' | 'asking' | 'stalled';
/** The agent a new session starts with: an agent kind of kinds.ts, or 'none'. */
export type AgentKind = string;

export interface Worker {
  id: string;
  sessionId: string;
  kind: WorkerKind;
  name: string;
  createdAt: string;
  status: WorkerStatus;
  activity: Activity | null;
  exitCode: number | null;
  error: string | null;
  // kind-specific
  /** A chat's agent (agentdesk extension): 'codex' for a Codex chat, absent for Claude's. */
  agent?: string;
  /** What the person chose (absent: nothing chosen, the CLI's own settings apply). */
  model?: string | null;
  permissionMode?: string | null;
  /** What the agent's CLI reports it runs with (sdk), or starts with (pty-agent). */
  current?: { model?: string; permissionMode?: string } | null;
  base?: string | null;
  cols?: number | null;
  rows?: number | null;
}

export interface Session {
  id: string;
  title: string;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  claudeSessionId: string | null;
  activeAgentWorkerId: string | null;
  workers: Worker[];
  /** The worktree agentdesk made for the session (agentdesk extension), else null. */
  worktree?: Worktree | null;
  /** The branch checked out in cwd, null when not a git work tree or detached (extension). */
  branch?: string | null;
  /** Rules added with "Always allow" (extension), null when none. */
  permissionRules?: PermissionRule[] | null;
  /** Archived: worktree removed, workers stopped, read-only (extension). */
  archived?: boolean;
  /** The sandbox level chosen at creation (extension; absent from older servers: off). */
  sandbox?: SandboxLevelName;
  /** What the session's box shows, null when not sandboxed (extension). */
  sandboxView?: SandboxView | null;
}

/** The levels of the session option "sandbox" (docs/api-extensions.md). */
export type SandboxLevelName = 'off' | 'workspace' | 'workspace+net';

/** What a sandboxed session's box shows: its files and its network. */
export interface SandboxView {
  level: SandboxLevelName;
  readOnly: string[];
  writable: string[];
  /** Empty at start, the box's own, gone with it (/tmp, /run). */
  private: string[];
  /** System files only their owner may read, masked (under /etc). */
  hidden: string[] | null;
  /** "loopback" (only the model API, through agentdesk) or "host". */
  network: string;
  endpoints: string[] | null;
}

/** One sandbox level and whether this server runs it (GET /api/capabilities). */
export interface SandboxLevel {
  level: SandboxLevelName;
  available: boolean;
  reason?: string;
}

export interface Capabilities {
  sandbox: { levels: SandboxLevel[] };
}

export interface PermissionRule {
  id: string;
  toolName: string;
  ruleContent?: string;
  destination: string;
  createdAt: string;
}

export interface Worktree {
  repo: string;
  branch: string;
  path: string;
  /** The branch merge back goes into (extension). */
  base?: string;
}

/** GET /api/git: is a folder in a git work tree (agentdesk extension). */
export interface RepoInfo {
  path: string;
  repo: boolean;
  root?: string;
  branch: string | null;
  dirty?: boolean;
}

/** Body of POST /api/sessions. */
export interface CreateSessionInput {
  cwd?: string;
  /** With worktree: a new branch of repo checked out in a new worktree (cwd then empty). */
  repo?: string;
  branch?: string;
  worktree?: boolean;
  title?: string;
  agent?: AgentKind;
  model?: string;
  permissionMode?: string;
  sandbox?: SandboxLevelName;
}

/** Body of POST /api/sessions/:sid/workers (kind-specific options allowed). */
export interface CreateWorkerInput {
  kind: WorkerKind;
  /** A chat's agent: 'codex', or absent for Claude. */
  agent?: string;
  name?: string;
  model?: string;
  permissionMode?: string;
  allowedTools?: string[];
  command?: string;
  cols?: number;
  rows?: number;
  base?: string;
}

/** Server-to-client frames of /ws/app. */
export type AppFrame =
  | { type: 'sessions-sync'; sessions: Session[] }
  | { type: 'session-created'; session: Session }
  | { type: 'session-updated'; session: Session }
  | { type: 'session-deleted'; sessionId: string }
  | { type: 'worker-created'; worker: Worker }
  | { type: 'worker-updated'; worker: Worker }
  | { type: 'worker-deleted'; sessionId: string; workerId: string }
  | { type: 'worker-activity'; sessionId: string; workerId: string; activity: Activity | null }
  | { type: 'error'; code: string; message: string };

/** Text frames of a pty-agent / terminal worker socket (server to client). */
export type TerminalFrame =
  | { type: 'history-end'; offset: number }
  | { type: 'truncated'; offset: number }
  | { type: 'activity'; state: Activity }
  | { type: 'exit'; exitCode: number | null; signal: string | number | null }
  | { type: 'error'; code: string; message: string };
