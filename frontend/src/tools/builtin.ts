// agentdesk's own tools, served by this tab over /ws/tools: ask_user (a form
// in the chat), show (a file in the Files tab, or a link) for the session the
// tab shows, and notify (a toast, or a system notification when the tab is
// hidden) for every session. The tab that is shown last gets the calls; with
// no tab open the server's notify pushes instead (worker/tools).
import { asks, type AskSpec, type ShowSpec } from './asks';
import { connectTools, text, type ContentItem, type ToolCall, type ToolDef, type Tools } from './client.js';
import { toast } from './toast';

/** The provider name tool cards show for these tools. */
export const builtinProvider = 'agentdesk';

const askUser: Omit<ToolDef, 'handler'> = {
  name: 'ask_user',
  description: 'Ask the person a question with a small form in their chat: choices to pick from, a text answer, and/or a file to upload. Waits for the answer. Use it when you need a decision or a file from them.',
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question.' },
      choices: { type: 'array', items: { type: 'string' }, description: 'Answers to pick from (optional).' },
      multiple: { type: 'boolean', description: 'Several choices may be picked.' },
      allowText: { type: 'boolean', description: 'Offer a free-text answer besides the choices (always offered when there are none).' },
      file: { type: 'boolean', description: 'Ask for a file (a text file or an image).' },
      accept: { type: 'string', description: 'File types to offer, e.g. "image/*,.csv".' },
    },
    required: ['question'],
  },
};

const show: Omit<ToolDef, 'handler'> = {
  name: 'show',
  description: 'Show the person a file of the session (opened in the Files tab) or a web page (a link they open in a new tab). Returns at once.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'A file path, relative to the session directory or absolute.' },
      line: { type: 'number', description: 'A line to show (optional).' },
      url: { type: 'string', description: 'An http(s) URL to offer instead of a file.' },
    },
  },
};

const notify: Omit<ToolDef, 'handler'> = {
  name: 'notify',
  description: 'Reach the person working with you: shows a notification in their agentdesk tab, or pushes one to their devices when no tab is open. Use it when something needs their attention (a long task finished, you are blocked). It does not wait for an answer.',
  inputSchema: {
    type: 'object',
    properties: { title: { type: 'string', description: 'A short title.' }, message: { type: 'string', description: 'What to tell the person.' } },
    required: ['message'],
  },
};

/** What the app tells the tools. */
export interface BuiltinHost {
  sessionTitle(sid: string): string;
  sessionCwd(sid: string): string;
  open(sid: string): void;
}

export class BuiltinTools {
  private readonly tools: Tools;
  private viewed: string | null = null;
  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible') this.registerViewed();
  };

  constructor(private readonly host: BuiltinHost) {
    this.tools = connectTools({ provider: builtinProvider, onError: (m) => console.warn('agentdesk tools:', m) });
    this.tools.register('*', [{ ...notify, handler: (input, call) => this.notify(input, call) }]);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** The tab shows session sid (null: none): its ask_user and show come here. */
  view(sid: string | null): void {
    if (sid === this.viewed) return;
    if (this.viewed !== null) this.tools.unregister(this.viewed);
    this.viewed = sid;
    this.registerViewed();
  }

  dispose(): void {
    document.removeEventListener('visibilitychange', this.onVisible);
    this.tools.close();
  }

  /** Registering again makes this tab the one that gets the session's calls. */
  private registerViewed(): void {
    if (this.viewed === null) return;
    this.tools.register(this.viewed, [
      { ...askUser, handler: (input, call) => this.ask(input, call) },
      { ...show, handler: (input, call) => this.show(input, call) },
    ]);
  }

  private ask(input: Record<string, unknown>, call: ToolCall): Promise<{ content: ContentItem[]; isError: boolean }> {
    const spec = askSpec(input);
    if (spec.question === '') return Promise.resolve({ content: [text('ask_user needs a question.')], isError: true });
    return this.pending(call, { ask: spec });
  }

  private show(input: Record<string, unknown>, call: ToolCall): string {
    const spec = showSpec(input);
    if (spec.path === '' && spec.url === '') return 'show needs a path or a url.';
    if (spec.url !== '' && !/^https?:\/\//i.test(spec.url)) return 'show takes http or https URLs only.';
    const cwd = this.host.sessionCwd(call.sessionId);
    if (spec.path.startsWith('/') && cwd !== '' && spec.path.startsWith(cwd.replace(/\/$/, '') + '/')) spec.path = spec.path.slice(cwd.replace(/\/$/, '').length + 1);
    // The chat's dock shows it, and opens a file in the session's Files tab.
    void this.pending(call, { show: spec });
    return spec.url !== '' ? 'The link is shown to the person in the chat; they open it themselves.' : `${spec.path} is shown to the person in the session's Files tab.`;
  }

  private notify(input: Record<string, unknown>, call: ToolCall): string {
    const message = typeof input.message === 'string' ? input.message.trim() : '';
    if (message === '') throw new Error('notify needs a message.');
    const title = (typeof input.title === 'string' && input.title.trim() !== '' ? input.title.trim() : this.host.sessionTitle(call.sessionId)) || 'agentdesk';
    toast(title, message, () => this.host.open(call.sessionId));
    if (document.visibilityState !== 'visible' && 'Notification' in window && Notification.permission === 'granted') {
      const n = new Notification(title, { body: message, tag: `agentdesk-message-${call.sessionId}` });
      n.onclick = () => {
        window.focus();
        this.host.open(call.sessionId);
      };
      return 'Shown to the person as a notification of their agentdesk tab.';
    }
    return 'Shown to the person in their agentdesk tab.';
  }

  /** Puts a form or link in the session's chat until answered or cancelled. */
  private pending(call: ToolCall, what: { ask?: AskSpec; show?: ShowSpec }): Promise<{ content: ContentItem[]; isError: boolean }> {
    return new Promise((resolve) => {
      const end = (content: ContentItem[], isError: boolean): void => {
        asks.remove(call.callId);
        resolve({ content, isError });
      };
      call.signal.addEventListener('abort', () => end([text('cancelled')], true));
      asks.add({ callId: call.callId, sessionId: call.sessionId, toolUseId: call.toolUseId, ...what, done: end });
    });
  }
}

function strOf(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function askSpec(input: Record<string, unknown>): AskSpec {
  const choices = Array.isArray(input.choices) ? input.choices.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
  return {
    question: strOf(input.question),
    choices,
    multiple: input.multiple === true,
    allowText: input.allowText === true || choices.length === 0,
    file: input.file === true,
    accept: strOf(input.accept),
  };
}

function showSpec(input: Record<string, unknown>): ShowSpec {
  const line = typeof input.line === 'number' && Number.isInteger(input.line) && input.line > 0 ? input.line : null;
  return { path: strOf(input.path), url: strOf(input.url), line };
}
