// The conversation as DOM: stored CLI lines and stream events are queued as they
// arrive and rendered in order by flush(), a time-boxed slice at a time
// (queue.ts). Lines are appended once and never re-rendered; a tool_result
// only fills in its card. A line whose uuid was already shown is dropped
// (reconnects, several replays). The history read before the socket opens
// (addHistory) is built off the document and attached in one append (chunks.ts).
import { ChunkedLog } from './chunks';
import type { StoredMessage } from './history';
import { withAttachments } from './attach-view';
import { LiveStream } from './live';
import { localCommand } from './local-command';
import { blocksOf, deniedByPermission, num, str, type Block, type CliMessage } from './protocol';
import { WorkQueue } from './queue';
import { note, renderApiError, renderResult, renderText, renderThinking, renderUserText, markFromTerminal } from './render';
import { systemLine } from './system-line';
import { resultText, ToolCard } from './tool-card';
import { nameTaskRow, TaskList } from './tools/task-list';

/** History lines staged at most before they are attached (a progress view for very long histories). */
const maxStaged = 20_000;

type Op =
  | { kind: 'stored'; msg: CliMessage; html: Record<string, string> | undefined }
  | { kind: 'event'; msg: CliMessage }
  | { kind: 'run'; fn: () => void };

export class Transcript {
  readonly el: HTMLElement;
  private readonly seen = new Set<string>();
  private readonly cards = new Map<string, ToolCard>();
  /** The main agent's TaskCreate/TaskUpdate list, given to onTodos like a TodoWrite input. */
  private readonly tasks = new TaskList();
  private turnCards: ToolCard[] = [];
  private initShown = false;
  private prevTotal: number | null = null;
  private readonly live: LiveStream;
  private readonly queue = new WorkQueue<Op>();
  private readonly log: ChunkedLog;
  /** History lines queued since the last queued stage, -1 when none is open. */
  private staged = -1;

  /**
   * onChunk: a new chunk of the log (see ChunkedLog). onTodos: the main
   * agent's TodoWrite input, for each one shown, oldest first, or its task
   * list in that shape each time a TaskCreate/TaskUpdate changes it.
   */
  constructor(onChunk?: (chunk: HTMLElement) => void, private readonly onTodos?: (input: unknown) => void) {
    this.log = new ChunkedLog(onChunk);
    this.el = this.log.el;
    this.live = new LiveStream((el, parent) => this.container(parent).append(el));
  }

  /** Queues a stored line; false when its uuid was already shown (or queued). */
  add(msg: CliMessage, html: Record<string, string> | undefined): boolean {
    if (!this.claim(msg)) return false;
    this.queue.push({ kind: 'stored', msg, html });
    return true;
  }

  /**
   * Queues a page of the stored history read before the socket opens. The
   * pages are built off the document and attached together by endHistory(),
   * so the view opens on the newest messages instead of scrolling through
   * the older ones (a very long history is attached every maxStaged lines).
   * False when every line was already shown.
   */
  addHistory(msgs: StoredMessage[]): boolean {
    const fresh = msgs.filter((x) => this.claim(x.message));
    if (fresh.length === 0) return false;
    if (this.staged < 0) {
      // With nothing queued before it, staging now lets the first slice run off the document too.
      if (this.pending) this.addRun(() => this.log.stage());
      else this.log.stage();
      this.staged = 0;
    }
    for (const x of fresh) this.queue.push({ kind: 'stored', msg: x.message, html: x.html });
    this.staged += fresh.length;
    if (this.staged >= maxStaged) this.endHistory();
    return true;
  }

  /** The history read is over (or cut short): queues the attachment of what addHistory staged. */
  endHistory(): void {
    if (this.staged < 0) return;
    this.staged = -1;
    this.addRun(() => this.log.commit());
  }

  /** True while queued history is being built off the document: no frame shows it yet. */
  get offDocument(): boolean {
    return this.log.staged;
  }

  /** Queues a stream_event line (not stored: shown until its assistant line comes). */
  addEvent(msg: CliMessage): void {
    this.queue.push({ kind: 'event', msg });
  }

  /** Queues DOM work that must happen in order with the lines queued before it. */
  addRun(fn: () => void): void {
    this.queue.push({ kind: 'run', fn });
  }

  /** The socket reconnected: it replays the running message's events, so drop the live text. */
  dropLive(): void {
    this.addRun(() => this.live.dropLive());
  }

  /** Queues a note that ends any running turn (the CLI exited): its open calls get no result. */
  endWithNote(text: string, kind: string): void {
    this.addRun(() => {
      for (const c of this.turnCards) c.settle();
      this.turnCards = [];
      this.live.clear();
      this.initShown = false;
      this.log.tail().append(note(text, kind));
    });
  }

  /** Forgets everything shown (the server's history was reset). */
  clear(): void {
    this.queue.clear();
    this.staged = -1;
    this.seen.clear();
    this.cards.clear();
    this.tasks.clear();
    this.turnCards = [];
    this.initShown = false;
    this.prevTotal = null;
    this.live.clear();
    this.log.clear();
  }

  /** Whether the stored line uuid was shown (or queued). */
  has(uuid: string): boolean {
    return this.seen.has(uuid);
  }

  get pending(): boolean {
    return this.queue.pending;
  }

  /** Renders queued work until deadline (performance.now() time); true when some is left. */
  flush(deadline: number): boolean {
    return this.queue.flush(deadline, (op) => this.apply(op));
  }

  /** Records msg's uuid as shown; false when it already was. */
  private claim(msg: CliMessage): boolean {
    const id = msg.uuid;
    if (typeof id !== 'string' || id === '') return true;
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    return true;
  }

  private apply(op: Op): void {
    if (op.kind === 'run') op.fn();
    else if (op.kind === 'event') this.live.onEvent(op.msg);
    else this.render(op.msg, op.html);
  }

  private render(m: CliMessage, html: Record<string, string> | undefined): void {
    let els: HTMLElement[] = [];
    switch (m.type) {
      case 'user':
        els = this.user(m, html?.['0']);
        break;
      case 'assistant':
        els = this.assistant(m, html ?? {});
        break;
      case 'system':
        els = this.system(m);
        break;
      case 'result':
        els = [this.result(m)];
        break;
      default:
        return; // control lines and anything new: nothing to show
    }
    const first = els[0];
    if (first !== undefined && typeof m.uuid === 'string') first.dataset.uuid = m.uuid;
    // Imported from the CLI's session file: turns typed in Claude's terminal UI say so.
    if (first !== undefined && m.agentdeskSource === 'terminal') markFromTerminal(first);
  }

  /** Where a line goes: the log, or inside the sub-agent's tool card. */
  private container(parentToolUseId: string | null | undefined): HTMLElement {
    if (typeof parentToolUseId === 'string' && parentToolUseId !== '') {
      const card = this.cards.get(parentToolUseId);
      if (card !== undefined) return card.children;
    }
    return this.log.tail();
  }

  private user(m: CliMessage, html: string | undefined): HTMLElement[] {
    const local = localCommand(m);
    if (local !== undefined) {
      if (local === null) return [];
      this.container(m.parent_tool_use_id).append(local);
      return [local];
    }
    const blocks = blocksOf(m);
    const out: HTMLElement[] = [];
    for (const b of blocks) {
      if (b.type !== 'tool_result') continue;
      const id = b.tool_use_id ?? '';
      let card = this.cards.get(id);
      if (card === undefined) {
        // A result whose call is not shown (should not happen): show it alone.
        card = new ToolCard(id, 'tool', {});
        this.cards.set(id, card);
        this.container(m.parent_tool_use_id).append(card.el);
        out.push(card.el);
      }
      card.setResult(b, deniedByPermission(m, id), m.tool_use_result);
      if (this.tasks.result(b, m.tool_use_result, resultText(b.content))) this.onTodos?.(this.tasks.input());
    }
    const text = withAttachments(renderUserText(blocks.filter((b) => b.type !== 'tool_result'), html), m);
    if (text !== null) {
      this.container(m.parent_tool_use_id).append(text);
      out.unshift(text);
    }
    return out;
  }

  private assistant(m: CliMessage, html: Record<string, string>): HTMLElement[] {
    const els: HTMLElement[] = [];
    blocksOf(m).forEach((b, i) => {
      const el = this.assistantBlock(m, b, html[String(i)]);
      if (el !== null) els.push(el);
    });
    const replaced = this.live.take(m.message?.id ?? '');
    if (replaced !== null && replaced.parentNode !== null) replaced.replaceWith(...els);
    else {
      replaced?.remove();
      this.container(m.parent_tool_use_id).append(...els);
    }
    return els;
  }

  private assistantBlock(m: CliMessage, b: Block, html: string | undefined): HTMLElement | null {
    switch (b.type) {
      case 'text': {
        const text = b.text ?? '';
        if (m.is_api_error_message === true) return renderApiError(m, text);
        if (text === '' && (html ?? '') === '') return null;
        return renderText(text, html, m.aborted === true);
      }
      case 'thinking':
        return renderThinking(b.thinking ?? '', num(m, 'thinking_duration_ms'));
      case 'redacted_thinking':
        return renderThinking('', null);
      case 'tool_use': {
        const card = new ToolCard(b.id ?? '', b.name ?? '', b.input);
        const main = (m.parent_tool_use_id ?? null) === null;
        if (b.name === 'TodoWrite' && main) this.onTodos?.(b.input);
        if (main && this.tasks.use(b.name ?? '', b.id ?? '', b.input)) {
          nameTaskRow(card.el, this.tasks.subject(str(b.input, 'taskId')));
          this.tasks.lastCard = card.el;
          this.onTodos?.(this.tasks.input());
        }
        if (b.id !== undefined) this.cards.set(b.id, card);
        this.turnCards.push(card);
        return card.el;
      }
      default:
        return note(`[${b.type ?? 'unknown'} block]`);
    }
  }

  private system(m: CliMessage): HTMLElement[] {
    if (m.subtype === 'init') {
      if (this.initShown) return [];
      this.initShown = true;
    }
    const el = systemLine(m, this.cards);
    if (el === null) return [];
    this.container(m.parent_tool_use_id).append(el);
    return [el];
  }

  private result(m: CliMessage): HTMLElement {
    const denials = Array.isArray(m.permission_denials) ? m.permission_denials : [];
    for (const d of denials) this.cards.get(str(d, 'tool_use_id'))?.markDenied();
    for (const c of this.turnCards) c.settle();
    this.turnCards = [];
    this.tasks.turnEnded();
    this.live.clear();
    const el = renderResult(m, this.prevTotal);
    this.prevTotal = num(m, 'total_cost_usd') ?? this.prevTotal;
    this.initShown = false;
    this.log.tail().append(el);
    return el;
  }
}
