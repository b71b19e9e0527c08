// The line under a chat while a conversation is imported into it: the
// import's messages come as history-appended notices (connection.ts), not
// one by one, and the chat shows their newest page once the import ends;
// meanwhile this says how far it got.
import { h } from '../../dom';

export class ImportProgress {
  readonly el: HTMLElement;
  private count = 0;

  constructor() {
    this.el = h('div', { class: 'chat-importing', role: 'status', hidden: true });
  }

  /** count more messages were imported. */
  add(count: number): void {
    this.count += count;
    this.el.hidden = false;
    this.el.textContent = `Importing the conversation… ${this.count.toLocaleString()} messages so far`;
  }

  /** The newest page is shown: the line goes. */
  done(): void {
    this.count = 0;
    this.el.hidden = true;
    this.el.textContent = '';
  }
}
