// The new-session form's sandbox choice (docs/api-extensions.md, "Sandboxed
// sessions"): off, workspace or workspace+net, the levels this server cannot
// run disabled with the reason (GET /api/capabilities names the package to
// install). In a box the agent may run without asking: a checkbox then offers
// bypass permissions, which the box makes acceptable.
import type { Api } from '../api';
import { h, setText } from '../dom';
import type { CreateSessionInput, SandboxLevel, SandboxLevelName } from '../types';
import '../styles/sandbox.css';

const labels: Record<SandboxLevelName, string> = {
  off: 'Off: runs as you',
  workspace: 'Workspace: this folder only',
  'workspace+net': 'Workspace + network',
};

export class SandboxField {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly bypass: HTMLInputElement;
  private readonly bypassRow: HTMLElement;
  private readonly hint: HTMLElement;
  private loaded = false;
  /** Why levels cannot run here (what to install), shown while off is chosen. */
  private unavailable = '';

  constructor(private readonly api: Api) {
    this.select = h('select', { id: 'ns-sandbox', name: 'sandbox', 'aria-describedby': 'ns-sandbox-hint' },
      ...(Object.keys(labels) as SandboxLevelName[]).map((l) => h('option', { value: l, selected: l === 'off' }, labels[l])));
    this.bypass = h('input', { id: 'ns-bypass', name: 'bypass', type: 'checkbox' });
    this.bypassRow = h('label', { class: 'check ns-bypass', for: 'ns-bypass', hidden: true }, this.bypass,
      h('span', null, 'Let the agent work without asking (bypass permissions): the box keeps it in'));
    this.hint = h('p', { class: 'hint', id: 'ns-sandbox-hint' });
    this.el = h('div', { class: 'ns-sandbox' }, h('label', { for: 'ns-sandbox' }, 'Sandbox'), this.select, this.hint, this.bypassRow);
    this.select.addEventListener('change', () => this.render());
    this.render();
  }

  /** Asks the server once which levels it runs; the form works meanwhile. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    try {
      this.apply((await this.api.capabilities()).sandbox.levels);
    } catch {
      this.loaded = false; // an older server, or offline: try again next time; the create request says the rest
    }
  }

  /**
   * The request's fields: the level, and when bypass is ticked the agent's
   * mode for working without asking: Claude's bypassPermissions, Codex's
   * approval policy never (Codex takes no Claude mode).
   */
  input(agent: string): Pick<CreateSessionInput, 'sandbox' | 'permissionMode'> {
    const sandbox = this.select.value as SandboxLevelName;
    if (sandbox === 'off') return {};
    if (!this.bypass.checked) return { sandbox };
    return { sandbox, permissionMode: agent === 'codex' ? 'never' : 'bypassPermissions' };
  }

  reset(): void {
    this.select.value = 'off';
    this.bypass.checked = false;
    this.render();
  }

  private apply(levels: SandboxLevel[]): void {
    const missing: string[] = [];
    for (const l of levels) {
      const opt = this.select.querySelector<HTMLOptionElement>(`option[value="${CSS.escape(l.level)}"]`);
      if (opt === null) continue;
      opt.disabled = !l.available;
      setText(opt, l.available ? labels[l.level] : `${labels[l.level]} (not available here)`);
      if (!l.available && l.reason) missing.push(l.reason);
    }
    if (this.select.selectedOptions[0]?.disabled) this.select.value = 'off';
    this.unavailable = [...new Set(missing)].join(' ');
    this.render();
  }

  private render(): void {
    const boxed = this.select.value !== 'off';
    this.bypassRow.hidden = !boxed;
    if (!boxed) this.bypass.checked = false;
    setText(this.hint, boxed
      ? (this.select.value === 'workspace'
        ? 'Every process of the session (the agent, its tools, terminals) runs in a box: the system read-only, only this folder writable, your home and other projects out of sight, no network but the model API.'
        : 'The same box, with the network of this machine: for agents that must install packages.')
      : this.unavailable);
  }
}
