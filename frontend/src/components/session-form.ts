// "New session" form: directory (required, absolute), optional title, agent kind.
// Server errors ({"error","code"}) are shown next to the form.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import type { AgentKind, Session } from '../types';

export class SessionForm {
  readonly el: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly form: HTMLFormElement;
  private readonly cwd: HTMLInputElement;
  private readonly title: HTMLInputElement;
  private readonly agent: HTMLSelectElement;
  private readonly error: HTMLElement;
  private readonly submit: HTMLButtonElement;

  constructor(private readonly api: Api, private readonly onCreated: (s: Session) => void) {
    this.toggle = h('button', { class: 'btn btn-primary new-session-btn', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'new-session-form', title: 'New session (Alt+N)' }, '+ New session');
    this.cwd = h('input', { id: 'ns-cwd', name: 'cwd', type: 'text', required: true, placeholder: '/home/me/project', autocomplete: 'off', spellcheck: 'false' });
    this.title = h('input', { id: 'ns-title', name: 'title', type: 'text', placeholder: 'optional', autocomplete: 'off' });
    this.agent = h('select', { id: 'ns-agent', name: 'agent' },
      h('option', { value: 'sdk', selected: true }, 'Claude (chat)'),
      h('option', { value: 'pty-agent' }, 'Claude (terminal)'),
      h('option', { value: 'none' }, 'None'));
    this.error = h('p', { class: 'form-error', role: 'alert', id: 'ns-error' });
    this.submit = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Create');
    const cancel = h('button', { class: 'btn', type: 'button', onClick: () => this.close(true) }, 'Cancel');
    this.form = h('form', { class: 'new-session-form', id: 'new-session-form', hidden: true, 'aria-label': 'New session' },
      h('label', { for: 'ns-cwd' }, 'Directory'), this.cwd,
      h('label', { for: 'ns-title' }, 'Title'), this.title,
      h('label', { for: 'ns-agent' }, 'Agent'), this.agent,
      this.error,
      h('div', { class: 'form-actions' }, this.submit, cancel));
    this.el = h('div', { class: 'new-session' }, this.toggle, this.form);
    this.toggle.addEventListener('click', () => (this.form.hidden ? this.open() : this.close(true)));
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.create();
    });
    this.form.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        this.close(true);
      }
    });
  }

  open(): void {
    this.form.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    this.cwd.focus();
  }

  close(focusToggle: boolean): void {
    this.form.hidden = true;
    this.error.textContent = '';
    this.toggle.setAttribute('aria-expanded', 'false');
    if (focusToggle) this.toggle.focus();
  }

  private async create(): Promise<void> {
    const cwd = this.cwd.value.trim();
    if (!cwd.startsWith('/')) {
      this.fail('The directory must be an absolute path (starting with /).', this.cwd);
      return;
    }
    const title = this.title.value.trim();
    this.submit.disabled = true;
    this.error.textContent = '';
    try {
      const s = await this.api.createSession({
        cwd,
        agent: this.agent.value as AgentKind,
        ...(title !== '' ? { title } : {}),
      });
      this.form.reset();
      this.close(false);
      this.onCreated(s);
    } catch (err) {
      this.fail(errorMessage(err), this.cwd);
    } finally {
      this.submit.disabled = false;
    }
  }

  private fail(message: string, field: HTMLElement): void {
    this.error.textContent = message;
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', 'ns-error');
    field.focus();
    field.addEventListener('input', () => field.removeAttribute('aria-invalid'), { once: true });
  }
}
