// "Stage & commit" above the diff: the staged and unstaged files of the
// session's work tree with per-file and per-hunk stage/unstage, discard
// (behind the app's dialog; an untracked file asks twice), a commit box with
// "Ask the agent to write it" (its answer fills the box: commit-ask.ts), and
// Push when a remote exists. It fetches the
// status when opened and again after every diff frame (the worker watches
// the index too), and shows git's own message when something is refused.
import { ApiError, errorMessage, type Api } from '../../api';
import { askConfirm } from '../../components/dialog';
import { h, setText } from '../../dom';
import type { Session } from '../../types';
import { AgentAsk } from './commit-ask';
import { askForMessage, GitClient, type GitStatus, type IndexFile, type Side } from './git-model';
import { fileRow } from './git-rows';
import { shortSha } from './model';
import './git.css';

export class GitPanel {
  readonly el: HTMLElement;
  private readonly git: GitClient;
  private readonly toggle: HTMLButtonElement;
  private readonly body: HTMLElement;
  private readonly error: HTMLElement;
  private readonly note: HTMLElement;
  private readonly msg: HTMLTextAreaElement;
  private readonly commitBtn: HTMLButtonElement;
  private readonly askBtn: HTMLButtonElement;
  private readonly pushBtn: HTMLButtonElement;
  private readonly lists: Record<Side, HTMLElement>;
  private readonly open = new Set<string>(); // "side:path" of expanded files
  private status: GitStatus | null = null;
  private fetching = false;
  private again = false;
  private busy = false;
  /** The running "Ask the agent", if any. */
  private asking: AgentAsk | null = null;

  constructor(private readonly api: Api, private session: Session) {
    this.git = new GitClient(api, session.id);
    this.toggle = h('button', { type: 'button', class: 'btn btn-small gp-toggle', 'aria-expanded': 'false', onClick: () => this.setOpen(this.body.hidden) }, 'Stage & commit');
    this.error = h('div', { class: 'gp-error', role: 'alert', hidden: true });
    this.note = h('p', { class: 'gp-note', role: 'status' });
    this.msg = h('textarea', { class: 'gp-msg', rows: 2, placeholder: 'Commit message', 'aria-label': 'Commit message', spellcheck: 'true' });
    this.commitBtn = h('button', { type: 'button', class: 'btn btn-primary gp-commit-btn', onClick: () => void this.commit() }, 'Commit');
    this.askBtn = h('button', { type: 'button', class: 'btn gp-ask', onClick: () => this.askAgent() }, 'Ask the agent to write it');
    this.pushBtn = h('button', { type: 'button', class: 'btn gp-push', hidden: true, onClick: () => void this.push() }, 'Push');
    this.lists = { staged: h('div', { class: 'gp-list', 'data-side': 'staged' }), unstaged: h('div', { class: 'gp-list', 'data-side': 'unstaged' }) };
    const box = h('div', { class: 'gp-commit' }, this.msg, h('div', { class: 'gp-actions' }, this.commitBtn, this.askBtn, this.pushBtn), this.note);
    this.body = h('div', { class: 'gp-body', hidden: true }, this.error, box, this.lists.staged, this.lists.unstaged);
    this.el = h('section', { class: 'gp', 'aria-label': 'Stage and commit' }, h('div', { class: 'gp-head' }, this.toggle), this.body);
    this.el.addEventListener('click', (ev) => this.onClick(ev));
    this.renderAsk();
  }

  /** The session changed (its active agent worker decides "Ask the agent"). */
  setSession(s: Session): void {
    this.session = s;
    this.renderAsk();
  }

  /** The work tree changed: fetch the status again while the panel is open. */
  refresh(): void {
    if (this.body.hidden) return;
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    this.git.status().then((st) => this.render(st), (err) => this.showError(err)).finally(() => {
      this.fetching = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    });
  }

  private setOpen(open: boolean): void {
    this.body.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) this.refresh();
  }

  private render(st: GitStatus): void {
    this.status = st;
    const where = st.branch === null ? 'detached HEAD' : st.branch;
    setText(this.toggle, `Stage & commit · ${where} · ${st.staged.length} staged, ${st.unstaged.length} unstaged`);
    this.pushBtn.hidden = st.remote === null || st.branch === null;
    setText(this.pushBtn, st.remote === null ? 'Push' : `Push to ${st.remote}`);
    this.renderList('staged', st.staged, 'Staged');
    this.renderList('unstaged', st.unstaged, 'Changes not staged');
  }

  private renderList(side: Side, files: IndexFile[], title: string): void {
    const rows = files.map((f) => fileRow(side, f, this.open.has(`${side}:${f.path}`)));
    const empty = files.length === 0 ? h('p', { class: 'gp-empty' }, side === 'staged' ? 'Nothing staged.' : 'No other changes.') : null;
    this.lists[side].replaceChildren(h('h3', null, `${title} (${files.length})`), ...rows, empty ?? '');
  }

  private renderAsk(): void {
    const wid = this.session.activeAgentWorkerId;
    this.askBtn.disabled = wid === null || this.asking !== null;
    this.askBtn.setAttribute('aria-busy', String(this.asking !== null));
    this.askBtn.title = wid === null ? 'This session has no agent to ask' : 'Sends the agent a message asking for a commit message for the staged changes';
  }

  private onClick(ev: MouseEvent): void {
    const t = (ev.target as HTMLElement).closest<HTMLElement>('[data-act]');
    if (t === null || this.status === null) return;
    const row = t.closest<HTMLElement>('.gp-file');
    const side = row?.dataset.side as Side | undefined;
    const f = side === undefined ? undefined : this.status[side].find((x) => x.path === row?.dataset.path);
    if (side === undefined || f === undefined) return;
    const act = t.dataset.act;
    if (act === 'expand') {
      const key = `${side}:${f.path}`;
      if (!this.open.delete(key)) this.open.add(key);
      this.renderList(side, this.status[side], side === 'staged' ? 'Staged' : 'Changes not staged');
    } else if (act === 'move') {
      void this.run(() => this.git.move(side, f, t.dataset.hunk));
    } else if (act === 'discard') {
      void this.discard(f);
    }
  }

  private async discard(f: IndexFile): Promise<void> {
    const untracked = f.status === 'untracked';
    const first = await askConfirm({
      title: untracked ? `Delete the untracked file ${f.path}?` : `Discard the changes to ${f.path}?`,
      body: [untracked ? 'git has no copy of this file.' : 'The unstaged changes to this file are thrown away; staged changes stay.'],
      confirm: untracked ? 'Delete…' : 'Discard changes',
      danger: true,
    });
    if (!first.ok) return;
    if (untracked) {
      const second = await askConfirm({
        title: 'Delete it for good?',
        body: [h('p', null, h('code', null, f.path), ' is not tracked by git: once deleted it cannot be restored from git.')],
        confirm: 'Delete the file',
        cancel: 'Keep it',
        danger: true,
      });
      if (!second.ok) return;
    }
    await this.run(() => this.git.discard(f, untracked));
  }

  private async commit(): Promise<void> {
    const ok = await this.run(() => this.git.commit(this.msg.value));
    if (ok && this.status !== null) {
      this.msg.value = '';
      setText(this.note, `Committed ${this.status.head === null ? '' : shortSha(this.status.head)}.`);
    }
  }

  private async push(): Promise<void> {
    const st = this.status;
    const ok = await this.run(() => this.git.push());
    if (ok && st !== null) setText(this.note, `Pushed ${st.branch ?? ''} to ${st.remote ?? ''}.`);
  }

  /** Asks the agent; its message fills the box (unless the person wrote one meanwhile). */
  private askAgent(): void {
    const wid = this.session.activeAgentWorkerId;
    if (wid === null || this.asking !== null) return;
    const before = this.msg.value;
    const end = (): void => {
      this.asking = null;
      this.renderAsk();
    };
    this.error.hidden = true;
    this.asking = new AgentAsk(this.api, this.session.id, wid, askForMessage, {
      status: (text) => setText(this.note, text),
      done: (message) => {
        end();
        if (this.msg.value.trim() === '' || this.msg.value === before) {
          this.fill(message);
          setText(this.note, 'The agent’s message is in the box: edit it if you like, then Commit.');
          this.msg.focus({ preventScroll: true });
        } else {
          // The person wrote their own meanwhile: theirs stays, the agent's is offered.
          const use = h('button', { type: 'button', class: 'btn btn-small gp-use', onClick: () => {
            this.fill(message);
            setText(this.note, 'The agent’s message is in the box: edit it if you like, then Commit.');
          } }, 'Use it');
          this.note.replaceChildren('The agent wrote a message; yours is kept. ', use);
        }
      },
      failed: (text) => {
        end();
        setText(this.note, text);
      },
    });
    this.renderAsk();
  }

  /** Puts message in the box, tall enough to show it (up to 8 lines). */
  private fill(message: string): void {
    this.msg.value = message;
    this.msg.rows = Math.min(8, Math.max(2, message.split('\n').length));
  }

  dispose(): void {
    this.asking?.dispose();
    this.asking = null;
  }

  /** Runs one change; the answer is the new status. False when refused. */
  private async run(call: () => Promise<GitStatus>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.el.setAttribute('aria-busy', 'true');
    this.error.hidden = true;
    setText(this.note, '');
    try {
      this.render(await call());
      return true;
    } catch (err) {
      this.showError(err);
      if (err instanceof ApiError && err.code === 'conflict') this.refresh();
      return false;
    } finally {
      this.busy = false;
      this.el.removeAttribute('aria-busy');
    }
  }

  private showError(err: unknown): void {
    this.error.textContent = errorMessage(err);
    this.error.hidden = false;
  }
}
