// Renders the parts of stored CLI lines that stand alone: user bubbles,
// assistant text and thinking, system notes and the turn footer. Text from
// messages always goes in as textContent; only the server's sanitized
// markdown HTML (the frame's "html") is inserted as HTML.
import { h } from '../../dom';
import { highlightBlocks } from '../../code/highlight';
import { codeBoxes } from '../../scroll-box';
import { limitReached, renderLimit } from '../../tools/limit-card';
import { setCopySource } from './copy';
import { formatCost, formatDuration, formatInt } from './format';
import { isObject, num, str, type Block, type CliMessage } from './protocol';

/** The CLI's interrupt markers ("[Request interrupted by user]", "... for tool use]"). */
const interruptRe = /^\[Request interrupted by user( for tool use)?\]\s*$/;

/**
 * A user bubble, or a dim marker for the CLI's interrupt lines; null when
 * there is no text. html: the server's markdown rendering of what the
 * person typed in agentdesk (absent for older messages and typed elsewhere).
 */
export function renderUserText(blocks: Block[], html?: string): HTMLElement | null {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b.type === 'image') parts.push('[image]');
  }
  if (parts.length === 0) return null;
  const text = parts.join('\n');
  if (interruptRe.test(text)) {
    return h('div', { class: 'chat-msg chat-note chat-interrupt' }, 'Interrupted by the user');
  }
  const body = h('div', { class: 'chat-user-text' });
  if (html !== undefined && html !== '') {
    body.classList.add('md');
    body.innerHTML = html; // sanitized by the server (goldmark, no raw HTML)
    codeBoxes(body);
    highlightBlocks(body);
  } else {
    body.classList.add('plain');
    body.textContent = text;
  }
  const el = h('div', { class: 'chat-msg chat-user' }, body);
  setCopySource(el, text);
  return el;
}

/**
 * Text longer than this without html was not rendered by the server (it renders
 * at most 1 MiB of markdown per message: the frame then has "htmlTruncated").
 */
const longText = 256 * 1024;

/** An assistant text block: the server's html when given, else the plain text. */
export function renderText(text: string, html: string | undefined, aborted: boolean): HTMLElement {
  const el = h('div', { class: 'chat-msg chat-text' });
  if (html !== undefined && html !== '') {
    el.classList.add('md');
    el.innerHTML = html; // sanitized by the server (goldmark, no raw HTML)
    codeBoxes(el);
    highlightBlocks(el);
  } else {
    el.classList.add('plain');
    el.textContent = text;
    if (text.length > longText) {
      el.prepend(h('div', { class: 'chat-note' }, 'Too long to format: shown as plain text.'));
    }
  }
  if (aborted) {
    el.classList.add('aborted');
    el.append(h('span', { class: 'chat-aborted' }, ' (interrupted)'));
  }
  setCopySource(el, text);
  return el;
}

/** A thinking block, collapsed. */
export function renderThinking(text: string, durationMs: number | null): HTMLElement {
  const label = durationMs !== null ? `Thinking (${formatDuration(durationMs)})` : 'Thinking';
  return h('details', { class: 'chat-msg chat-thinking' },
    h('summary', null, label),
    h('div', { class: 'thinking-text' }, text !== '' ? text : '(not shown)'));
}

/** The synthetic assistant message the CLI sends for an API error. */
export function renderApiError(m: CliMessage, text: string): HTMLElement {
  const status = num(m, 'api_error_status');
  return h('div', { class: 'chat-msg chat-error', role: 'note' },
    h('strong', null, status !== null ? `API error ${status}` : 'API error'),
    h('div', { class: 'chat-error-text' }, text));
}

/** A dim one-line note (init, permission mode...). */
export function note(text: string, kind = ''): HTMLElement {
  return h('div', { class: `chat-msg chat-note${kind !== '' ? ' ' + kind : ''}` }, text);
}

/** system/init: model and cwd. */
export function renderInit(m: CliMessage): HTMLElement {
  const parts = [str(m, 'model'), str(m, 'cwd')].filter((s) => s !== '');
  const mode = str(m, 'permissionMode');
  if (mode !== '' && mode !== 'default') parts.push(`mode ${mode}`);
  return note(parts.length > 0 ? parts.join(' · ') : 'session started', 'chat-init');
}

/** system/api_retry: a warning. */
export function renderRetry(m: CliMessage): HTMLElement {
  const attempt = num(m, 'attempt');
  const maxRetries = num(m, 'max_retries');
  const status = num(m, 'error_status');
  const delay = num(m, 'retry_delay_ms');
  let text = 'API request failed';
  if (status !== null) text += ` (${status}${str(m, 'error') !== '' ? ' ' + str(m, 'error') : ''})`;
  else if (str(m, 'error') !== '') text += ` (${str(m, 'error')})`;
  text += '; retrying';
  if (attempt !== null) text += ` (attempt ${attempt}${maxRetries !== null ? ` of ${maxRetries}` : ''})`;
  if (delay !== null) text += ` in ${formatDuration(delay)}`;
  return h('div', { class: 'chat-msg chat-warn', role: 'note' }, text);
}

/** system/permission_denied: a tool refused by configuration. */
export function renderConfigDenied(m: CliMessage): HTMLElement {
  const tool = str(m, 'tool_name') || 'A tool';
  const msg = str(m, 'message');
  return h('div', { class: 'chat-msg chat-denied' }, `${tool} was denied${msg !== '' ? ': ' + msg : ''}`);
}

export type TurnOutcome = 'ok' | 'interrupted' | 'error';

/** How a result line ended its turn. */
export function outcomeOf(m: CliMessage): TurnOutcome {
  if (m.subtype === 'error_during_execution') return 'interrupted';
  if (m.is_error === true || (m.subtype !== undefined && m.subtype !== 'success')) return 'error';
  return 'ok';
}

/**
 * The turn's cost in USD: model_usage_since_last_result when the CLI gives it;
 * else total_cost_usd, which is cumulative per CLI process: the growth since the
 * previous result, or the total itself for a process's first result
 * (result_index 0, or a total that went down because the CLI was restarted).
 */
export function turnCost(m: CliMessage, prevTotal: number | null): number | null {
  const since = m.model_usage_since_last_result;
  if (isObject(since)) {
    let sum: number | null = null;
    for (const v of Object.values(since)) {
      const c = num(v, 'costUSD');
      if (c !== null) sum = (sum ?? 0) + c;
    }
    if (sum !== null) return sum;
  }
  const total = num(m, 'total_cost_usd');
  if (total === null) return null;
  if (num(m, 'result_index') === 0 || prevTotal === null || total < prevTotal) return total;
  return total - prevTotal;
}

/** The turn footer: outcome, duration, tokens, cost, denials. */
export function renderResult(m: CliMessage, prevTotal: number | null): HTMLElement {
  const outcome = outcomeOf(m);
  const label = outcome === 'ok' ? 'Done' : outcome === 'interrupted' ? 'Interrupted' : 'Error';
  const facts: string[] = [];
  const dur = num(m, 'duration_ms');
  if (dur !== null) facts.push(formatDuration(dur));
  const inTok = num(m.usage, 'input_tokens');
  const outTok = num(m.usage, 'output_tokens');
  // A turn cut short before the API answered used nothing: no "0 in / 0
  // out tokens · $0" to read (a cost of nothing is no cost).
  if ((inTok ?? 0) > 0 || (outTok ?? 0) > 0) facts.push(`${formatInt(inTok ?? 0)} in / ${formatInt(outTok ?? 0)} out tokens`);
  const cost = turnCost(m, prevTotal);
  if (cost !== null && cost > 0) facts.push(formatCost(cost));
  const limit = limitReached(m);
  if (limit !== null) {
    const errors = Array.isArray(m.errors) ? m.errors.filter((e: unknown) => typeof e === 'string').join('; ') : '';
    return renderLimit(limit, facts.join(' · '), errors);
  }
  const el = h('div', { class: 'chat-msg chat-result', 'data-outcome': outcome },
    h('span', { class: 'result-label' }, label),
    facts.length > 0 ? h('span', { class: 'result-facts' }, facts.join(' · ')) : null);
  // An API error's text is already shown by the CLI's synthetic assistant message.
  if (outcome === 'error' && m.terminal_reason !== 'api_error' && typeof m.result === 'string' && m.result !== '') {
    el.append(h('div', { class: 'result-error' }, m.result));
  }
  const denials = Array.isArray(m.permission_denials) ? m.permission_denials : [];
  if (denials.length > 0) {
    const names = denials.map((d: unknown) => str(d, 'tool_name') || 'tool').join(', ');
    el.append(h('div', { class: 'result-denied' }, `Denied: ${names}`));
  }
  return el;
}

/**
 * The end of a turn a restart of agentdesk cut short (system/agentdesk_turn_cut):
 * shown like a turn's footer, as a Cancel's turn ends with "Interrupted".
 */
export function renderTurnCut(): HTMLElement {
  return h('div', { class: 'chat-msg chat-result chat-turn-cut', 'data-outcome': 'cut', role: 'note' },
    h('span', { class: 'result-label' }, 'Cut short by a restart'),
    h('span', { class: 'result-facts' }, 'agentdesk stopped during this turn; what Claude was still writing is lost. Send a message to go on.'));
}

/** A small "from terminal" badge on a message imported from a turn typed in Claude's terminal UI. */
export function markFromTerminal(el: HTMLElement): void {
  if (!el.classList.contains('chat-user') && !el.classList.contains('chat-text')) return;
  el.classList.add('from-terminal');
  el.dataset.source = 'terminal';
  el.prepend(h('span', { class: 'chat-source', title: 'Typed in Claude’s terminal UI' }, 'from terminal'));
}

/** The divider after the history a new chat worker imported (system/agentdesk_imported). */
export function renderImported(count: number): HTMLElement {
  const text = `${formatInt(count)} earlier message${count === 1 ? '' : 's'} from this conversation`;
  return h('div', { class: 'chat-msg chat-imported', role: 'separator', 'aria-label': text }, h('span', null, text));
}

/** Why the history a new chat worker should have imported is missing (system/agentdesk_import_failed). */
export function renderImportFailed(text: string): HTMLElement {
  return h('div', { class: 'chat-msg chat-warn chat-import-failed', role: 'note' },
    text !== '' ? text : 'The earlier turns of this conversation could not be shown.');
}
