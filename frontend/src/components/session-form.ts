// "New session" form: directory (required, absolute), optional title, agent
// kind. When the directory is a git work tree (GET /api/git, asked as the
// user types), it also offers "new git worktree": a new branch checked out
// in its own folder next to the repository, where the session then runs,
// and a link to the repository's settings for new worktrees.
// Server errors ({"error","code"}) are shown next to the form.
import { ApiError, errorMessage, type Api } from '../api';
import { h } from '../dom';
import { agentValue, startableAgents } from '../kinds';
import type { AgentKind, CreateSessionInput, Session } from '../types';
import { OpenExisting } from './open-existing';
import { RepoSettingsDialog } from './repo-settings';
import { SandboxField } from './sandbox-field';

/** Typing pause (ms) before asking whether the directory is a repository. */
const inspectDelayMs = 300;

export class SessionForm {
  readonly el: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly form: HTMLFormElement;
  private readonly cwd: HTMLInputElement;
  private readonly title: HTMLInputElement;
  private readonly agent: HTMLSelectElement;
  private readonly sandbox: SandboxField;
  private readonly worktreeBox: HTMLElement;
  private readonly worktree: HTMLInputElement;
  private readonly branchRow: HTMLElement;
  private readonly branch: HTMLInputElement;
  private readonly repoHint: HTMLElement;
  private readonly error: HTMLElement;
  private readonly submit: HTMLButtonElement;
  private inspectTimer: number | undefined;
  /** The directory the last answer of GET /api/git was about. */
  private inspected = '';

  constructor(private readonly api: Api, private readonly onCreated: (s: Session) => void) {
    this.toggle = h('button', { class: 'btn btn-primary new-session-btn', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'new-session-form', title: 'New session (Alt+N)' }, '+ New session');
    this.cwd = h('input', { id: 'ns-cwd', name: 'cwd', type: 'text', required: true, placeholder: '/home/me/project', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off' });
    this.title = h('input', { id: 'ns-title', name: 'title', type: 'text', placeholder: 'optional', autocomplete: 'off' });
    this.agent = h('select', { id: 'ns-agent', name: 'agent' },
      ...startableAgents().map((k, i) => h('option', { value: agentValue(k), selected: i === 0 }, k.startLabel ?? k.label)),
      h('option', { value: 'none' }, 'None'));
    this.worktree = h('input', { id: 'ns-worktree', name: 'worktree', type: 'checkbox' });
    this.branch = h('input', { id: 'ns-branch', name: 'branch', type: 'text', placeholder: 'feature/my-change', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off' });
    this.repoHint = h('p', { class: 'hint' });
    // What every new worktree of the repository gets: a setup command, copied files.
    const settings = h('button', { class: 'rs-open', type: 'button', onClick: () => void new RepoSettingsDialog(this.api, this.cwd.value.trim()).open() }, 'Repository settings…');
    this.branchRow = h('div', { hidden: true }, h('label', { for: 'ns-branch' }, 'New branch'), this.branch, this.repoHint, settings);
    this.worktreeBox = h('div', { class: 'ns-worktree', hidden: true },
      h('label', { class: 'check', for: 'ns-worktree' }, this.worktree, h('span', null, 'New git worktree (its own branch and folder)')),
      this.branchRow);
    this.sandbox = new SandboxField(this.api);
    this.error = h('p', { class: 'form-error', role: 'alert', id: 'ns-error' });
    this.submit = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Create');
    const cancel = h('button', { class: 'btn', type: 'button', onClick: () => this.close(true) }, 'Cancel');
    const existing = h('button', { class: 'btn btn-link open-existing-btn', type: 'button', onClick: () => this.openExisting() }, 'Open existing…');
    this.form = h('form', { class: 'new-session-form', id: 'new-session-form', hidden: true, 'aria-label': 'New session' },
      h('label', { for: 'ns-cwd' }, 'Folder'), this.cwd,
      this.worktreeBox,
      h('label', { for: 'ns-title' }, 'Title'), this.title,
      h('label', { for: 'ns-agent' }, 'Agent'), this.agent,
      this.sandbox.el,
      this.error,
      h('div', { class: 'form-actions' }, this.submit, cancel, existing));
    this.el = h('div', { class: 'new-session' }, this.toggle, this.form);
    this.wire();
  }

  open(): void {
    this.form.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    this.cwd.focus();
    void this.sandbox.load();
  }

  close(focusToggle: boolean): void {
    this.form.hidden = true;
    this.error.textContent = '';
    this.toggle.setAttribute('aria-expanded', 'false');
    if (focusToggle) this.toggle.focus();
  }

  /** The dialog of conversations the CLI already holds; one picked opens as a new session. */
  private openExisting(): void {
    this.close(false);
    void new OpenExisting(this.api, (s) => this.onCreated(s)).open();
  }

  private wire(): void {
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
    this.cwd.addEventListener('input', () => this.scheduleInspect());
    this.cwd.addEventListener('change', () => void this.inspect());
    this.worktree.addEventListener('change', () => {
      this.branchRow.hidden = !this.worktree.checked;
      if (this.worktree.checked) this.branch.focus();
    });
  }

  private scheduleInspect(): void {
    window.clearTimeout(this.inspectTimer);
    this.inspectTimer = window.setTimeout(() => void this.inspect(), inspectDelayMs);
  }

  /** Shows the worktree option when the directory is in a git work tree. */
  private async inspect(): Promise<void> {
    window.clearTimeout(this.inspectTimer);
    const dir = this.cwd.value.trim();
    if (dir === this.inspected) return;
    this.inspected = dir;
    let repo = false;
    if (dir.startsWith('/')) {
      try {
        const info = await this.api.inspectRepo(dir);
        if (this.cwd.value.trim() !== dir) return; // typed on meanwhile
        repo = info.repo;
        this.repoHint.textContent = `Created from the current commit of ${info.root ?? dir}${info.branch ? ` (on ${info.branch})` : ''}, in a folder next to it; the session runs there.`;
      } catch {
        repo = false; // the create request reports any real problem
      }
    }
    this.worktreeBox.hidden = !repo;
    if (!repo) {
      this.worktree.checked = false;
      this.branchRow.hidden = true;
    }
  }

  private input(cwd: string): CreateSessionInput {
    const title = this.title.value.trim();
    const base: CreateSessionInput = { agent: this.agent.value as AgentKind, ...(title !== '' ? { title } : {}), ...this.sandbox.input(this.agent.value) };
    if (!this.worktreeBox.hidden && this.worktree.checked) {
      return { ...base, repo: cwd, branch: this.branch.value.trim(), worktree: true };
    }
    return { ...base, cwd };
  }

  private async create(): Promise<void> {
    const cwd = this.cwd.value.trim();
    if (!cwd.startsWith('/')) {
      this.fail('The folder must be an absolute path (starting with /).', this.cwd);
      return;
    }
    const input = this.input(cwd);
    if (input.worktree === true && input.branch === '') {
      this.fail('Enter a name for the new branch.', this.branch);
      return;
    }
    this.submit.disabled = true;
    this.error.textContent = '';
    try {
      const s = await this.api.createSession(input);
      this.form.reset();
      this.sandbox.reset();
      this.worktreeBox.hidden = true;
      this.branchRow.hidden = true;
      this.inspected = '';
      this.close(false);
      this.onCreated(s);
    } catch (err) {
      const onBranch = err instanceof ApiError && input.worktree === true && /branch/i.test(err.message);
      this.fail(plainWords(errorMessage(err)), onBranch ? this.branch : this.cwd);
    } finally {
      this.submit.disabled = false;
    }
  }

  private fail(message: string, field: HTMLElement): void {
    this.error.textContent = message;
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', 'ns-error');
    field.focus();
    // Fixing the field takes the error away: it spoke of what was there.
    field.addEventListener('input', () => {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
      this.error.textContent = '';
    }, { once: true });
  }
}

/** The server names the request's fields ("The cwd …"); the form calls it the folder. */
export function plainWords(message: string): string {
  return message.replace(/\b[Tt]he (cwd|repo)( field)? /g, (_m, _f, _x, at: number) => (at === 0 ? 'The folder ' : 'the folder '));
}
