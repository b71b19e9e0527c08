// "Ask the agent to write it": the request goes to the session's agent as a
// user message, and its answer comes back into the commit box. The ask
// watches the agent worker's socket (API.md: history, history-end, then
// live frames): after the replay it sends the message (POST …/input, which
// queues it while a turn runs), recognises its echo (the next user message
// with exactly that text), and takes the text of the first turn result
// after it (the CLI's `result`, the reply as plain text; never rendered
// HTML). A dropped socket resumes after the last message seen.
import type { Api } from '../../api';
import { errorMessage } from '../../api';
import { ReconnectingSocket, wsUrl } from '../../ws';

export interface AskHooks {
  /** What the ask waits for now (a sentence for the panel's note). */
  status(text: string): void;
  /** The agent's message. */
  done(message: string): void;
  /** The ask ended without a message; text says why. */
  failed(text: string): void;
}

interface Frame {
  type?: string;
  message?: { type?: string; uuid?: string; subtype?: string; is_error?: boolean; result?: unknown; message?: { content?: unknown } };
  toolName?: string;
  state?: string;
  code?: string;
}

/** A user line's text (a string, or its text blocks). */
function userText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.map((b: { type?: string; text?: unknown }) => (b.type === 'text' && typeof b.text === 'string' ? b.text : null));
  return texts.every((t) => t !== null) ? texts.join('') : null;
}

/**
 * The commit message in a reply: the first fenced code block's content when
 * there is one (the request asks for it that way), else the whole reply.
 */
export function messageOf(reply: string): string {
  const fence = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1\s*$/m.exec(reply);
  return (fence?.[2] ?? reply).trim();
}

export class AgentAsk {
  private readonly socket: ReconnectingSocket;
  /** The uuid of the newest message seen (the resume cursor). */
  private last = '';
  private sent = false;
  /** The uuid of the request's echo once seen; a result counts only after it. */
  private echo: string | null = null;
  private afterEcho = false;
  private finished = false;

  constructor(private readonly api: Api, private readonly sid: string, private readonly wid: string,
    private readonly content: string, private readonly hooks: AskHooks) {
    const path = `/ws/sessions/${encodeURIComponent(sid)}/workers/${encodeURIComponent(wid)}`;
    this.socket = new ReconnectingSocket({
      url: () => wsUrl(this.last === '' ? path : `${path}?after=${encodeURIComponent(this.last)}`),
      onMessage: (data) => {
        if (typeof data === 'string') this.onFrame(data);
      },
    });
    hooks.status('Connecting to the agent…');
  }

  dispose(): void {
    this.finished = true;
    this.socket.dispose();
  }

  private onFrame(data: string): void {
    let f: Frame;
    try {
      f = JSON.parse(data) as Frame;
    } catch {
      return;
    }
    if (this.finished) return;
    if (f.type === 'reset') {
      this.last = '';
      this.afterEcho = false; // the whole history comes again: wait for the echo's place in it
    } else if (f.type === 'history-end' && !this.sent) {
      void this.send();
    } else if (f.type === 'sdk-message' && f.message !== undefined) {
      this.onMessage(f.message);
    } else if (f.type === 'permission-request' && this.sent) {
      this.hooks.status(`The agent asks to use ${f.toolName ?? 'a tool'}: answer it in its tab (or the inbox); its message then lands here.`);
    } else if (f.type === 'activity' && f.state === 'active' && this.echo !== null) {
      this.hooks.status('The agent is writing the message…');
    }
  }

  private onMessage(m: NonNullable<Frame['message']>): void {
    if (typeof m.uuid === 'string' && m.uuid !== '') this.last = m.uuid;
    if (this.echo !== null && m.uuid === this.echo) {
      this.afterEcho = true;
      return;
    }
    if (this.echo === null && this.sent && m.type === 'user' && userText(m.message?.content)?.trim() === this.content.trim()) {
      this.echo = m.uuid ?? '';
      this.afterEcho = true;
      this.hooks.status('The agent is writing the message…');
      return;
    }
    if (!this.afterEcho || m.type !== 'result') return;
    this.finish(m);
  }

  private finish(m: NonNullable<Frame['message']>): void {
    this.finished = true;
    this.socket.dispose();
    const reply = typeof m.result === 'string' ? m.result : '';
    if (m.is_error === true || (m.subtype !== undefined && m.subtype !== 'success')) {
      this.hooks.failed(m.subtype === 'error_during_execution'
        ? 'The agent’s turn was interrupted before it wrote a message.'
        : `The agent’s turn ended with an error${reply !== '' ? `: ${reply}` : ''}.`);
      return;
    }
    const message = messageOf(reply);
    if (message === '') this.hooks.failed('The agent answered with no text: see its tab.');
    else this.hooks.done(message);
  }

  private async send(): Promise<void> {
    this.sent = true;
    this.hooks.status('Asking the agent…');
    try {
      // Queued behind a running turn, delivered when it ends.
      await this.api.request('POST', `${this.api.workerPath(this.sid, this.wid)}/input`, { content: this.content });
      if (this.echo === null) this.hooks.status('Asked the agent: its message lands here when it answers (after its current turn, if one runs).');
    } catch (err) {
      this.finished = true;
      this.socket.dispose();
      this.hooks.failed(`Could not ask the agent: ${errorMessage(err)}`);
    }
  }
}
