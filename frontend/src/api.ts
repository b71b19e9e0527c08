// REST client for /api (API.md "REST"). Authentication is the HttpOnly cookie the
// server sets; this module never sees or stores the token except to POST it once.
import type { Capabilities, CreateSessionInput, CreateWorkerInput, RepoInfo, Session, Worker } from './types';

/** Query options of DELETE /api/sessions/:sid (docs/api-extensions.md). */
export interface DeleteOptions {
  removeWorktree?: boolean;
  force?: boolean;
}

/** An error answer from the server ({"error","code"}), or a network failure (status 0). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** True when err is an ApiError saying the request was not authenticated. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/** A human message for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

async function readError(res: Response): Promise<ApiError> {
  let code = 'http_' + res.status;
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as { error?: unknown; code?: unknown };
    if (typeof body.error === 'string' && body.error !== '') message = body.error;
    if (typeof body.code === 'string' && body.code !== '') code = body.code;
  } catch {
    // Not JSON (e.g. a proxy page): keep the status line.
  }
  return new ApiError(res.status, code, message);
}

const enc = encodeURIComponent;

export class Api {
  constructor(private readonly base = '') {}

  /** Sends one request; resolves to the parsed JSON body, or undefined for 204/202 without body. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers = { ...init.headers, 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    let res: Response;
    try {
      res = await fetch(this.base + path, init);
    } catch (err) {
      throw new ApiError(0, 'network', `Cannot reach the server (${errorMessage(err)}). Check that agentdesk is still running.`);
    }
    if (!res.ok) throw await readError(res);
    const text = await res.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  login(token: string): Promise<void> {
    return this.request('POST', '/api/login', { token });
  }

  listSessions(): Promise<Session[]> {
    return this.request('GET', '/api/sessions');
  }

  getSession(sid: string): Promise<Session> {
    return this.request('GET', `/api/sessions/${enc(sid)}`);
  }

  createSession(input: CreateSessionInput): Promise<Session> {
    return this.request('POST', '/api/sessions', input);
  }

  /** What this server can do beyond API.md: the sandbox levels it runs. */
  capabilities(): Promise<Capabilities> {
    return this.request('GET', '/api/capabilities');
  }

  renameSession(sid: string, title: string): Promise<Session> {
    return this.request('PATCH', `/api/sessions/${enc(sid)}`, { title });
  }

  /**
   * Deletes a session. removeWorktree also removes the git worktree agentdesk
   * made for it; one with uncommitted changes answers 409 conflict unless force.
   */
  deleteSession(sid: string, o: DeleteOptions = {}): Promise<void> {
    const q = new URLSearchParams();
    if (o.removeWorktree === true) q.set('removeWorktree', 'true');
    if (o.force === true) q.set('force', 'true');
    const qs = q.toString();
    return this.request('DELETE', `/api/sessions/${enc(sid)}${qs === '' ? '' : '?' + qs}`);
  }

  /** Whether path is in a git work tree (GET /api/git); status also says whether it has changes. */
  inspectRepo(path: string, status = false): Promise<RepoInfo> {
    return this.request('GET', `/api/git?path=${enc(path)}${status ? '&status=true' : ''}`);
  }

  createWorker(sid: string, input: CreateWorkerInput): Promise<Worker> {
    return this.request('POST', `/api/sessions/${enc(sid)}/workers`, input);
  }

  getWorker(sid: string, wid: string): Promise<Worker> {
    return this.request('GET', this.workerPath(sid, wid));
  }

  deleteWorker(sid: string, wid: string): Promise<void> {
    return this.request('DELETE', this.workerPath(sid, wid));
  }

  /** Restarts an exited terminal worker (agentdesk extension: 200 Worker). */
  restartWorker(sid: string, wid: string): Promise<Worker> {
    return this.request('POST', this.workerPath(sid, wid) + '/restart');
  }

  /**
   * Moves the session's conversation to a new agent worker of kind to
   * (API.md POST /api/sessions/:sid/switch). 409 agent_busy while a turn runs,
   * unless force, which interrupts it first.
   */
  async switchAgent(sid: string, to: string, force = false): Promise<Worker> {
    const body: { to: string; force?: boolean } = { to };
    if (force) body.force = true;
    const res = await this.request<{ worker: Worker }>('POST', `/api/sessions/${enc(sid)}/switch`, body);
    return res.worker;
  }

  sendInput(sid: string, wid: string, content: string): Promise<void> {
    return this.request('POST', this.workerPath(sid, wid) + '/input', { content });
  }

  cancel(sid: string, wid: string, force = false): Promise<{ cancelled?: boolean } | undefined> {
    return this.request('POST', this.workerPath(sid, wid) + '/cancel', force ? { force: true } : undefined);
  }

  workerPath(sid: string, wid: string): string {
    return `/api/sessions/${enc(sid)}/workers/${enc(wid)}`;
  }
}
