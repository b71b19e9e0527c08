// Types of client.js, agentdesk's tools client (served as /tools-client.js).

export interface ContentItem {
  type: 'text' | 'image' | 'json';
  text?: string;
  data?: string;
  mimeType?: string;
  json?: unknown;
}

export interface ToolResult {
  content: ContentItem[];
  isError?: boolean;
}

export interface ToolCall {
  callId: string;
  sessionId: string;
  tool: string;
  toolUseId: string;
  /** Aborts when agentdesk cancels the call. */
  signal: AbortSignal;
}

export interface ToolDef {
  name: string;
  description?: string;
  inputSchema?: object;
  handler(input: Record<string, unknown>, call: ToolCall): unknown;
}

export interface ToolsOptions {
  provider?: string;
  url?: string;
  token?: string;
  WebSocket?: unknown;
  onError?(message: string): void;
  onStatus?(state: 'open' | 'closed'): void;
}

export interface Tools {
  ready: Promise<void>;
  register(sessionId: string, tools: ToolDef[]): void;
  unregister(sessionId: string): void;
  close(): void;
}

export function connectTools(options?: ToolsOptions): Tools;
export function text(s: string): ContentItem;
export function image(data: string, mimeType?: string): ContentItem;
export function json(value: unknown): ContentItem;
