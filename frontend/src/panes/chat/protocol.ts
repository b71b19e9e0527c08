// Shapes of the sdk worker socket (API.md "/ws/sessions/:sid/workers/:wid — sdk
// workers") and of the CLI lines it carries (claude-cli.md §4–6). CLI lines are
// passed through as the CLI wrote them, so every field here is optional and read
// defensively: unknown keys are ignored, missing ones are not errors.
import type { Activity } from '../../types';
import type { StopStage } from './stop-card';
import type { QueueItem } from './queue-panel';

/** Any JSON object, read field by field. */
export type Json = Record<string, unknown>;

/** One content block of a CLI message (text, thinking, tool_use, tool_result, image...). */
export interface Block {
  type?: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/** A CLI output line (system, assistant, user, result, stream_event). */
export interface CliMessage {
  type?: string;
  subtype?: string;
  uuid?: string;
  parent_tool_use_id?: string | null;
  message?: { id?: string; role?: string; model?: string; content?: string | Block[] };
  event?: StreamEvent;
  [key: string]: unknown;
}

/** The raw API event inside a stream_event line. */
export interface StreamEvent {
  type?: string;
  index?: number;
  message?: { id?: string };
  content_block?: Block;
  delta?: { type?: string; text?: string; thinking?: string; partial_json?: string };
}

export interface PermissionRequest {
  type: 'permission-request';
  requestId: string;
  toolName: string;
  input: unknown;
  description?: string;
  toolUseId?: string;
  blockedPath?: string;
  permissionSuggestions?: unknown;
  /** ExitPlanMode: the plan rendered (sanitized) by the server. */
  planHtml?: string;
}

/** Server-to-client frames of an sdk worker socket. */
export type ServerFrame =
  | { type: 'sdk-message'; seq?: number; message: CliMessage; html?: Record<string, string> }
  | { type: 'history-end'; last: string | null }
  /** Messages stored and not sent one by one (an imported history): the cursor moves to last. */
  | { type: 'history-appended'; count: number; last: string }
  | { type: 'reset' }
  | { type: 'activity'; state: Activity }
  | { type: 'stop-stage'; stage: StopStage }
  | PermissionRequest
  | { type: 'permission-resolved'; requestId: string; behavior: string }
  | { type: 'exit'; exitCode: number | null; signal: string | number | null }
  | { type: 'error'; code: string; message: string }
  | { type: 'queue'; items: QueueItem[] };

/** Client-to-server frames. */
export type ClientFrame =
  | { type: 'user-message'; content: string; when?: 'now' | 'queue'; attachments?: { name: string; mediaType: string; data: string }[] }
  | { type: 'cancel'; force?: boolean }
  | {
      type: 'permission-response';
      requestId: string;
      behavior: 'allow' | 'deny';
      message?: string;
      updatedInput?: unknown;
      updatedPermissions?: unknown[];
    };

/** Parses a text frame; null for anything that is not a JSON object with a string type. */
export function parseFrame(data: string | ArrayBuffer): ServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const v: unknown = JSON.parse(data);
    if (isObject(v) && typeof v.type === 'string') return v as unknown as ServerFrame;
  } catch {
    // not JSON: ignore, the server never sends that
  }
  return null;
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** v[key] when it is a string, else ''. */
export function str(v: unknown, key: string): string {
  if (!isObject(v)) return '';
  const x = v[key];
  return typeof x === 'string' ? x : '';
}

/** v[key] when it is a finite number, else null. */
export function num(v: unknown, key: string): number | null {
  if (!isObject(v)) return null;
  const x = v[key];
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/** The content blocks of a message (a string content becomes one text block). */
export function blocksOf(m: CliMessage): Block[] {
  const c = m.message?.content;
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  return Array.isArray(c) ? c.filter(isObject) : [];
}

/** Whether the tool_result for id in user line m is a refusal (a person's deny or a rule). */
export function deniedByPermission(m: CliMessage, id: string): boolean {
  const meta = Array.isArray(m.tool_result_meta) ? m.tool_result_meta : [];
  for (const x of meta) {
    if (!isObject(x) || x.id !== id) continue;
    return str(x.permission_decision, 'decision') === 'reject';
  }
  return false;
}
