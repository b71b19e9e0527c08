// What a chat pane shows of usage and limits: the session's totals in the
// chat bar, and a notice when the reported window is nearly full (80%, or
// the CLI's own warning) or refused. The notice offers "Continue in the
// terminal view" (the existing switch: since 2026-06-15 the chat's `claude
// -p` turns and the terminal UI draw from separate budgets) and, when
// refused, "Continue when the limit resets": a message queued for the reset
// time (POST …/queue, docs/api-extensions.md).
import { errorMessage } from '../api';
import { h, setText } from '../dom';
import { workerKind } from '../kinds';
import type { PaneContext } from '../panes/registry';
import { day, fetchUsage, level, money, percent, rateLimits, resetText, tokens, windowName, type RateLimit } from './state';

/** What the queued message says. */
export const continueText = 'Continue where you left off.';

export class ChatUsage {
  /** The session's totals, for the chat bar. */
  readonly total: HTMLElement;
  /** The limit notice, above the conversation. */
  readonly notice: HTMLElement;
  private readonly text: HTMLElement;
  private readonly queueBtn: HTMLButtonElement;
  private readonly switchBtn: HTMLButtonElement;
  private readonly result: HTMLElement;
  private readonly unsubscribe: () => void;
  private seq = 0;
  private disposed = false;

  constructor(private readonly ctx: PaneContext) {
    this.total = h('span', { class: 'chat-usage muted', hidden: true });
    this.text = h('p', { class: 'limit-text' });
    this.queueBtn = h('button', { class: 'btn btn-primary', type: 'button', onClick: () => void this.queue() }, 'Continue when the limit resets');
    this.switchBtn = h('button', { class: 'btn', type: 'button', onClick: () => void this.toTerminal() }, 'Continue in the terminal view');
    this.result = h('p', { class: 'limit-result', role: 'status' });
    this.notice = h('div', { class: 'limit-notice', role: 'alert', hidden: true },
      this.text, h('div', { class: 'limit-actions' }, this.queueBtn, this.switchBtn), this.result);
    this.unsubscribe = rateLimits.subscribe((rl) => this.render(rl));
    void this.refresh();
  }

  dispose(): void {
    this.disposed = true;
    this.unsubscribe();
  }

  /** Reads the session's totals again (after each result). */
  async refresh(): Promise<void> {
    const seq = ++this.seq;
    const today = new Date();
    const created = new Date(this.ctx.session.createdAt);
    const yearAgo = new Date(today.getTime() - 365 * 86400e3);
    const from = Number.isNaN(created.getTime()) || created < yearAgo ? yearAgo : created;
    try {
      const rep = await fetchUsage(this.ctx.api, 'session', day(from), day(today), this.ctx.session.id);
      if (seq !== this.seq || this.disposed) return;
      const t = rep.total;
      this.total.hidden = t.turns === 0;
      setText(this.total, `${money(t.costUsd)} · ${t.turns} ${t.turns === 1 ? 'turn' : 'turns'}`);
      this.total.title = `This session so far: ${money(t.costUsd)}, ${t.turns} turns, ${tokens(t.inputTokens)} input and ${tokens(t.outputTokens)} output tokens, ${tokens(t.cacheReadTokens + t.cacheCreationTokens)} cache`;
    } catch {
      // The totals are a convenience: the usage page says what went wrong.
    }
  }

  private render(rl: RateLimit | null): void {
    const lv = level(rl);
    this.notice.hidden = rl === null || lv === 'ok' || lv === 'none';
    if (rl === null || this.notice.hidden) return;
    this.notice.dataset.level = lv;
    const reset = resetText(rl);
    setText(this.text, lv === 'rejected'
      ? `The ${windowName(rl)} usage limit is reached. It resets at ${reset}.`
      : `${percent(rl) ?? 'Most'} of the ${windowName(rl)} limit is used; it resets at ${reset}. The terminal view draws from a separate budget.`);
    this.queueBtn.hidden = lv !== 'rejected' || rl.resetsAt === undefined;
    setText(this.queueBtn, `Continue at ${reset}`);
    this.queueBtn.title = `Queue “${continueText}” to be sent when the limit resets`;
  }

  /** Queues the continue message for the reset time. */
  private async queue(): Promise<void> {
    const rl = rateLimits.current;
    if (rl?.resetsAt === undefined) return;
    const notBefore = new Date(rl.resetsAt * 1000).toISOString();
    const path = `/api/sessions/${encodeURIComponent(this.ctx.session.id)}/workers/${encodeURIComponent(this.ctx.worker.id)}/queue`;
    this.queueBtn.disabled = true;
    try {
      await this.ctx.api.request('POST', path, { content: continueText, notBefore });
      setText(this.result, `Queued: “${continueText}” will be sent at ${resetText(rl)}.`);
    } catch (err) {
      setText(this.result, `Could not queue the message: ${errorMessage(err)}`);
      this.queueBtn.disabled = false;
    }
  }

  private async toTerminal(): Promise<void> {
    this.switchBtn.disabled = true;
    try {
      const to = workerKind(this.ctx.worker).switchTo;
      if (to === undefined) throw new Error('this chat has no terminal view');
      await this.ctx.api.switchAgent(this.ctx.session.id, to);
      setText(this.result, 'The conversation continues in the terminal view.');
    } catch (err) {
      setText(this.result, `Could not switch: ${errorMessage(err)}`);
    } finally {
      this.switchBtn.disabled = false;
    }
  }
}
