// The repository settings form (docs/api-extensions.md, "Worktree
// lifecycle": GET/PUT /api/repos/settings?root=): the setup command run in
// a `setup` terminal tab of each new worktree session, and the patterns of
// the untracked files copied into each new worktree. A modal dialog,
// opened from the new-session form ("new git worktree") and from the
// worktrees view. The server validates; its message shows next to the
// field it names, and a refused save stores nothing.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import '../styles/repo-settings.css';

export interface RepoSettings {
  root: string;
  setupCommand: string;
  copyFiles: string[];
}

const enc = encodeURIComponent;

/** The patterns typed in the box: one a line, blank lines dropped. */
export function parsePatterns(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

export class RepoSettingsDialog {
  private readonly dialog: HTMLDialogElement;
  private readonly form: HTMLFormElement;
  private readonly rootEl = h('code', null);
  private readonly setup = h('textarea', { id: 'rs-setup', name: 'setupCommand', rows: 3, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', placeholder: 'npm ci', 'aria-describedby': 'rs-setup-hint rs-setup-error' });
  private readonly copy = h('textarea', { id: 'rs-copy', name: 'copyFiles', rows: 4, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', placeholder: '.env*', 'aria-describedby': 'rs-copy-hint rs-copy-error' });
  private readonly setupError = h('p', { class: 'form-error', id: 'rs-setup-error' });
  private readonly copyError = h('p', { class: 'form-error', id: 'rs-copy-error' });
  private readonly status = h('p', { class: 'rs-status', role: 'status' });
  private readonly save = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Save');
  private root: string;

  /** dir: any absolute folder in the repository (the server finds its top). */
  constructor(private readonly api: Api, dir: string) {
    this.root = dir;
    const close = h('button', { class: 'btn', type: 'button', onClick: () => this.dialog.close() }, 'Close');
    this.form = h('form', { class: 'rs-form', 'aria-labelledby': 'rs-title' },
      h('h2', { id: 'rs-title' }, 'Repository settings'),
      h('p', { class: 'rs-root' }, 'For new worktrees of ', this.rootEl),
      h('label', { for: 'rs-setup' }, 'Setup command'), this.setup,
      h('p', { class: 'hint', id: 'rs-setup-hint' }, 'Runs with your shell in each new worktree, in a terminal tab named “setup”. Empty: none.'),
      this.setupError,
      h('label', { for: 'rs-copy' }, 'Files to copy'), this.copy,
      h('p', { class: 'hint', id: 'rs-copy-hint' }, 'Untracked files of the repository copied into each new worktree: one pattern a line, relative to the repository (.env*, config/*.local). Empty: none.'),
      this.copyError,
      this.status,
      h('div', { class: 'form-actions' }, this.save, close));
    this.dialog = h('dialog', { class: 'app-dialog rs-dialog', 'aria-labelledby': 'rs-title' }, this.form);
    this.rootEl.textContent = dir;
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.submit();
    });
    for (const f of [this.setup, this.copy]) f.addEventListener('input', () => this.clearError(f));
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.dialog.addEventListener('close', () => {
      this.dialog.remove();
      if (opener?.isConnected) opener.focus();
    });
  }

  /** Shows the dialog (Escape or Close closes it) and reads the stored settings. */
  async open(): Promise<void> {
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.busy(true);
    this.say('Loading…');
    try {
      this.fill(await this.api.request<RepoSettings>('GET', `/api/repos/settings?root=${enc(this.root)}`));
      this.say('');
      this.busy(false);
      this.setup.focus();
    } catch (err) {
      this.say(errorMessage(err), true); // Save stays disabled: there is nothing to save to
    }
  }

  private fill(rs: RepoSettings): void {
    this.root = rs.root;
    this.rootEl.textContent = rs.root;
    this.setup.value = rs.setupCommand;
    this.copy.value = rs.copyFiles.join('\n');
  }

  private async submit(): Promise<void> {
    if (this.save.disabled) return;
    this.clearError(this.setup);
    this.clearError(this.copy);
    this.busy(true);
    this.say('Saving…');
    const body = { setupCommand: this.setup.value, copyFiles: parsePatterns(this.copy.value) };
    try {
      this.fill(await this.api.request<RepoSettings>('PUT', `/api/repos/settings?root=${enc(this.root)}`, body));
      this.say('Saved. New worktrees of this repository use these settings.');
    } catch (err) {
      this.fail(errorMessage(err));
    } finally {
      this.busy(false);
    }
  }

  /** Shows the server's message next to the field it names, else under the form. */
  private fail(msg: string): void {
    const field = /copyFiles/.test(msg) ? this.copy : /setupCommand/.test(msg) ? this.setup : null;
    if (field === null) {
      this.say(msg, true);
      return;
    }
    this.say('Not saved.', true);
    (field === this.copy ? this.copyError : this.setupError).textContent = msg;
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }

  private clearError(field: HTMLTextAreaElement): void {
    field.removeAttribute('aria-invalid');
    (field === this.copy ? this.copyError : this.setupError).textContent = '';
  }

  private busy(on: boolean): void {
    this.save.disabled = on;
    this.setup.readOnly = on;
    this.copy.readOnly = on;
  }

  private say(msg: string, bad = false): void {
    this.status.textContent = msg;
    this.status.classList.toggle('bad', bad);
  }
}
