// "Open existing…": a dialog that lists the conversations the Claude Code
// CLI already holds (started in a terminal, say), by project, and adopts
// the one picked into a new session (docs/api-extensions.md, "Adopt
// existing sessions"). A conversation a claude process is writing now
// opens read-only until that process ends; one already open here links to
// its session.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import type { Session } from '../types';
import '../styles/open-existing.css';

interface ClaudeProject { cwd: string; sessions: number; lastActivity: string }
interface ClaudeSession {
  id: string; title: string; firstPrompt: string; lastActivity: string;
  messages: number; live: boolean; agentdeskSessionId: string | null;
}

/** "3 min ago", "2 d ago": how long ago an ISO time was. */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

export class OpenExisting {
  private readonly dialog: HTMLDialogElement;
  private readonly heading: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly list: HTMLUListElement;
  private readonly status: HTMLElement;
  private readonly back: HTMLButtonElement;
  private projects: ClaudeProject[] = [];
  private sessions: ClaudeSession[] = [];
  private project: ClaudeProject | null = null;

  constructor(private readonly api: Api, private readonly onOpened: (s: Session) => void) {
    this.heading = h('h2', { id: 'oe-title' }, 'Open an existing conversation');
    this.filter = h('input', { type: 'search', class: 'oe-filter', placeholder: 'Filter projects', 'aria-label': 'Filter', autocomplete: 'off' });
    this.list = h('ul', { class: 'oe-list', 'aria-labelledby': 'oe-title' });
    this.status = h('p', { class: 'muted oe-status', role: 'status' });
    this.back = h('button', { class: 'btn', type: 'button', hidden: true, onClick: () => this.showProjects() }, '← Projects');
    const close = h('button', { class: 'btn', type: 'button', onClick: () => this.dialog.close() }, 'Close');
    this.dialog = h('dialog', { class: 'app-dialog open-existing', 'aria-labelledby': 'oe-title' },
      this.heading,
      h('p', { class: 'muted' }, 'Conversations Claude Code keeps on this machine. Opening one carries it on here: its history is imported, and your next message resumes it.'),
      this.filter, this.status, this.list,
      h('div', { class: 'form-actions' }, this.back, close));
    this.filter.addEventListener('input', () => this.render());
    this.dialog.addEventListener('close', () => this.dialog.remove());
  }

  async open(): Promise<void> {
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.filter.focus();
    this.status.textContent = 'Loading…';
    try {
      const res = await this.api.request<{ projects: ClaudeProject[] }>('GET', '/api/claude/projects');
      this.projects = res.projects;
      this.showProjects();
    } catch (err) {
      this.status.textContent = errorMessage(err);
    }
  }

  private showProjects(): void {
    this.project = null;
    this.back.hidden = true;
    this.heading.textContent = 'Open an existing conversation';
    this.filter.placeholder = 'Filter projects';
    this.filter.value = '';
    this.render();
    this.filter.focus();
  }

  private async showProject(p: ClaudeProject): Promise<void> {
    this.project = p;
    this.back.hidden = false;
    this.heading.textContent = p.cwd;
    this.filter.placeholder = 'Search by first prompt or title';
    this.filter.value = '';
    this.sessions = [];
    this.list.replaceChildren();
    this.status.textContent = 'Loading…';
    try {
      const res = await this.api.request<{ sessions: ClaudeSession[] }>('GET', `/api/claude/sessions?cwd=${encodeURIComponent(p.cwd)}`);
      if (this.project !== p) return;
      this.sessions = res.sessions;
      this.render();
      this.filter.focus();
    } catch (err) {
      this.status.textContent = errorMessage(err);
    }
  }

  private render(): void {
    const q = this.filter.value.trim().toLowerCase();
    if (this.project === null) {
      const shown = this.projects.filter((p) => p.cwd.toLowerCase().includes(q));
      this.list.replaceChildren(...shown.map((p) => this.projectRow(p)));
      this.status.textContent = this.projects.length === 0 ? 'No Claude Code conversations were found on this machine.' : shown.length === 0 ? 'No project matches.' : '';
      return;
    }
    const shown = this.sessions.filter((s) => `${s.title}\n${s.firstPrompt}`.toLowerCase().includes(q));
    this.list.replaceChildren(...shown.map((s) => this.sessionRow(s)));
    this.status.textContent = this.sessions.length === 0 ? 'This project has no conversations.' : shown.length === 0 ? 'No conversation matches.' : '';
  }

  private projectRow(p: ClaudeProject): HTMLLIElement {
    return h('li', null, h('button', { class: 'oe-item', type: 'button', onClick: () => void this.showProject(p) },
      h('span', { class: 'oe-main' }, p.cwd),
      h('span', { class: 'oe-meta' }, `${p.sessions} conversation${p.sessions === 1 ? '' : 's'} · ${ago(p.lastActivity)}`)));
  }

  private sessionRow(s: ClaudeSession): HTMLLIElement {
    const meta = [`${s.messages} prompt${s.messages === 1 ? '' : 's'}`, ago(s.lastActivity)];
    // A conversation open here is written by agentdesk's own CLI: the row leads to that session.
    const here = s.agentdeskSessionId !== null;
    const note = here ? h('span', { class: 'oe-badge' }, 'open here')
      : s.live ? h('span', { class: 'oe-badge oe-live', title: 'It opens read-only and is taken over here when that claude stops.' }, 'claude is writing it now') : null;
    const btn = h('button', { class: 'oe-item', type: 'button', onClick: () => void this.adopt(s, btn) },
      h('span', { class: 'oe-main' }, s.title || 'Untitled', note),
      s.firstPrompt !== '' && s.firstPrompt !== s.title ? h('span', { class: 'oe-prompt' }, s.firstPrompt) : null,
      h('span', { class: 'oe-meta' }, meta.join(' · ')));
    return h('li', null, btn);
  }

  private async adopt(s: ClaudeSession, btn: HTMLButtonElement): Promise<void> {
    if (this.project === null) return;
    btn.disabled = true;
    this.status.textContent = 'Opening…';
    try {
      const created = s.agentdeskSessionId !== null
        ? await this.api.getSession(s.agentdeskSessionId)
        : await this.api.request<Session>('POST', '/api/sessions', { cwd: this.project.cwd, claudeSessionId: s.id });
      this.dialog.close();
      this.onOpened(created);
    } catch (err) {
      btn.disabled = false;
      this.status.textContent = errorMessage(err);
    }
  }
}
