// Errors the server reports on the socket, above the conversation. A missing
// Claude CLI is the one a person must act on, so it says how to fix it.
import { h } from '../../dom';

const fixes: Record<string, string> = {
  claude_not_found:
    'Install the Claude Code CLI (npm install -g @anthropic-ai/claude-code), or restart agentdesk with ' +
    '--claude /path/to/claude (or AGENTDESK_CLAUDE). Then send your message again.',
};

export class Banner {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly fix: HTMLElement;

  constructor() {
    this.text = h('div', { class: 'chat-banner-text' });
    this.fix = h('div', { class: 'chat-banner-fix' });
    const close = h('button', { class: 'icon-btn chat-banner-close', type: 'button', 'aria-label': 'Dismiss' }, '×');
    close.addEventListener('click', () => this.hide());
    this.el = h('div', { class: 'chat-banner', role: 'alert', hidden: true }, this.text, this.fix, close);
  }

  show(code: string, message: string): void {
    this.el.dataset.code = code;
    this.el.classList.toggle('chat-banner-major', code in fixes);
    this.text.textContent = message !== '' ? message : `Error: ${code}`;
    this.fix.textContent = fixes[code] ?? '';
    this.fix.hidden = !(code in fixes);
    this.el.hidden = false;
  }

  hide(): void {
    this.el.hidden = true;
  }

  /** Whether the banner is up with this message. */
  shows(message: string): boolean {
    return !this.el.hidden && this.text.textContent === message;
  }
}
