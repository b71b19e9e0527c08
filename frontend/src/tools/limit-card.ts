// A turn the agent ended at a limit the person set (a result with subtype
// error_max_turns or error_max_budget_usd) is not a crash: it shows what was
// reached and how to go on. Its buttons ask the chat pane, by a bubbling
// event, to send "Continue" or to open the limits.
import { h } from '../dom';
import './tools.css';

/** Events the limit card sends up to its chat pane. */
export const limitContinue = 'agentdesk:limit-continue';
export const limitSettings = 'agentdesk:limit-settings';

export type LimitKind = 'turns' | 'budget';

/** The limit a result line reached, or null. */
export function limitReached(m: { subtype?: unknown }): LimitKind | null {
  if (m.subtype === 'error_max_turns') return 'turns';
  if (m.subtype === 'error_max_budget_usd') return 'budget';
  return null;
}

export function renderLimit(kind: LimitKind, facts: string, detail: string): HTMLElement {
  const fire = (type: string) => (ev: Event): void => {
    (ev.currentTarget as HTMLElement).dispatchEvent(new CustomEvent(type, { bubbles: true }));
  };
  const cont = h('button', { class: 'btn btn-small btn-primary', type: 'button', onClick: fire(limitContinue) }, 'Continue');
  const change = h('button', { class: 'btn btn-small', type: 'button', onClick: fire(limitSettings) }, kind === 'budget' ? 'Raise the budget…' : 'Change the limit…');
  const what = kind === 'turns'
    ? 'The agent took as many steps as this chat allows for one message and stopped. Continue lets it go on; its work so far is kept.'
    : 'The conversation reached the budget set for it. Raise or remove the budget to go on.';
  return h('div', { class: 'chat-msg chat-result chat-limit', 'data-outcome': 'limit', 'data-limit': kind, role: 'note' },
    h('span', { class: 'result-label' }, kind === 'turns' ? 'Turn limit reached' : 'Budget reached'),
    facts !== '' ? h('span', { class: 'result-facts' }, facts) : null,
    h('div', { class: 'limit-text' }, detail !== '' ? `${detail}. ${what}` : what),
    h('div', { class: 'perm-actions' }, kind === 'turns' ? cont : null, change));
}
