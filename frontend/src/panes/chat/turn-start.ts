// "Turn started" between sending a message and Claude's first token, so
// the wait (the CLI starting, the API's first byte) does not look like
// nothing happened. Shown after a message that starts a turn; gone at the
// first streamed block, a stored reply, a permission request, an error,
// or the end of the turn.
import { h } from '../../dom';
import type { Activity } from '../../types';
import type { CliMessage } from './protocol';

export class TurnStart {
  readonly el: HTMLElement;
  /** The turn's "active" was seen since the message was sent. */
  private sawActive = false;

  constructor() {
    this.el = h('div', { class: 'chat-turn-start', role: 'status', hidden: true },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', null, 'Turn started — waiting for Claude…'));
  }

  get shown(): boolean {
    return !this.el.hidden;
  }

  /** A message that starts a turn was sent. */
  sent(): void {
    this.sawActive = false;
    this.el.hidden = false;
  }

  done(): void {
    this.el.hidden = true;
  }

  /** A streamed event: the first content block is the first token. */
  streamed(m: CliMessage): void {
    const t = m.event?.type;
    if (t === 'content_block_start' || t === 'content_block_delta') this.done();
  }

  /** A stored line: Claude's reply or the turn's end. */
  stored(m: CliMessage): void {
    if (m.type === 'assistant' || m.type === 'result') this.done();
  }

  activity(a: Activity | null): void {
    if (a === 'active') this.sawActive = true;
    else if (a === 'asking' || (a === 'idle' && this.sawActive)) this.done();
  }
}
