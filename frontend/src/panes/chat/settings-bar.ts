// The chat header's settings: the model and the permission mode, each a menu
// button showing what the CLI reports as current (its init and status lines,
// and the Worker's `current`), and whether the person chose it (each menu
// says so at its top), and the session's "Always allow" rules with a remove
// action. A choice is a PATCH of the worker; the server answers once the CLI
// took it (or 409 with the CLI's reason), and the CLI's next report confirms
// it.
import type { Api } from '../../api';
import { errorMessage } from '../../api';
import { h, setText } from '../../dom';
import { announce } from '../../announce';
import { MenuButton } from '../../components/menu-button';
import type { PermissionRule, Session, Worker } from '../../types';
import type { CliMessage } from './protocol';
import { confirmBypass } from './bypass';
import { setChip } from './chip';
import { modesOf, type ModeSet } from './modes';
import { modelLabel } from './local-command';
import { ruleSpec } from './suggestions';

interface ModelInfo { value: string; displayName: string; description: string }

const destNames: Record<string, string> = {
  session: 'this session', localSettings: 'project (you)', projectSettings: 'project (shared)', userSettings: 'all projects',
};

export class SettingsBar {
  readonly el: HTMLElement;
  private readonly modelMenu: MenuButton;
  private readonly modeMenu: MenuButton;
  private readonly rulesMenu: MenuButton;
  private models: ModelInfo[] | null = null;
  /** What the CLI last reported; null until it did (or after a choice of ours). */
  private reportedMode: string | null = null;
  private reportedModel: string | null = null;
  private bypassChosen: boolean;
  /** The session runs in a box: bypass is offered without a confirmation. */
  private sandboxed = false;
  /** The modes of the chat's agent. */
  private readonly modes: ModeSet;
  private busy = false;
  /** Alt+M presses that came while a change was on its way: each cycles once more after it. */
  private cyclesWaiting = 0;
  private readonly modelNote = h('div', { class: 'menu-note set-source' });
  private readonly modeNote = h('div', { class: 'menu-note set-source' });
  /** The mode last shown, and whether the history replay ended (before, changes are old news). */
  private shownMode: string | null = null;
  private live = false;

  constructor(private readonly api: Api, private readonly sid: string, private worker: Worker,
    private readonly onError: (message: string) => void) {
    this.bypassChosen = worker.permissionMode === 'bypassPermissions';
    this.modes = modesOf(worker.agent);
    this.modelMenu = new MenuButton(h('button', { class: 'btn btn-small set-model', type: 'button', title: 'Model' }), 'Model');
    this.modeMenu = new MenuButton(h('button', { class: 'btn btn-small set-mode', type: 'button', title: 'Permission mode (Alt+M cycles it)', 'aria-keyshortcuts': 'Alt+M' }), 'Permission mode');
    this.rulesMenu = new MenuButton(h('button', { class: 'btn btn-small set-rules', type: 'button', title: '"Always allow" rules' }), 'Always-allow rules');
    this.el = h('div', { class: 'chat-settings' }, this.modelMenu.el, this.modeMenu.el, this.rulesMenu.el);
    this.modelMenu.button.addEventListener('click', () => void this.loadModels());
    this.setModeItems();
    this.modelMenu.setItems([], [this.modelNote, h('div', { class: 'menu-note' }, 'Loading models…')]);
    this.render();
  }

  /** The worker or its session changed (worker-updated, session-updated). */
  update(worker: Worker, session: Session): void {
    if (worker.permissionMode !== this.worker.permissionMode) this.reportedMode = null; // a new choice
    if (worker.model !== this.worker.model) this.reportedModel = null;
    if (worker.permissionMode === 'bypassPermissions') this.bypassChosen = true;
    this.sandboxed = (session.sandbox ?? 'off') !== 'off';
    this.worker = worker;
    this.setRules(session.permissionRules ?? []);
    this.render();
  }

  /** A stored CLI line: init and status lines say the mode (and model) in force. */
  observe(m: CliMessage): void {
    if (m.type !== 'system') return;
    if (typeof m.permissionMode === 'string') this.reportedMode = m.permissionMode;
    if (m.subtype === 'init' && typeof m.model === 'string') this.reportedModel = m.model;
    this.render();
  }

  /** The history replay ended: a choice stored since the last report wins. */
  historyEnd(): void {
    if (this.worker.permissionMode) this.reportedMode = null;
    if (this.worker.model) this.reportedModel = null;
    this.render();
    this.live = true;
  }

  get mode(): string {
    return this.reportedMode ?? (this.worker.permissionMode || this.worker.current?.permissionMode || this.modes.fallback);
  }

  /** Alt+M: the agent's modes in turn (Claude's: default → acceptEdits → plan (→ bypassPermissions once chosen, or in a sandbox) → default). */
  cycleMode(): void {
    if (this.busy) {
      this.cyclesWaiting++;
      return;
    }
    const bypass = 'bypassPermissions' in this.modes.names && (this.bypassChosen || this.sandboxed);
    const order = [...this.modes.cycle, ...(bypass ? ['bypassPermissions'] : [])];
    const i = order.indexOf(this.mode);
    void this.choose({ permissionMode: order[(i + 1) % order.length] ?? this.modes.fallback });
  }

  dispose(): void {
    this.modelMenu.dispose();
    this.modeMenu.dispose();
    this.rulesMenu.dispose();
  }

  private render(): void {
    // A chosen alias (sonnet) reads better than the id the CLI reports for it.
    const model = this.worker.model ? this.modelName(this.worker.model)
      : this.reportedModel ?? this.worker.current?.model ?? 'Default model';
    const mode = this.modes.names[this.mode] ?? this.mode;
    const source = (chosen: boolean): string => (chosen ? 'chosen here' : `from ${this.modes.owner}'s own settings`);
    setChip(this.modelMenu.button, modelLabel(model));
    this.modelMenu.button.setAttribute('aria-label', `Model: ${model}, ${source(!!this.worker.model)}`);
    this.modelMenu.button.dataset.chosen = String(!!this.worker.model);
    setText(this.modelNote, `Now: ${model}, ${source(!!this.worker.model)}`);
    setChip(this.modeMenu.button, mode, this.modes.short[this.mode] ?? mode);
    this.modeMenu.button.setAttribute('aria-label', `Permission mode: ${mode}, ${source(!!this.worker.permissionMode)}`);
    this.modeMenu.button.dataset.mode = this.mode;
    this.modeMenu.button.dataset.chosen = String(!!this.worker.permissionMode);
    setText(this.modeNote, `Now: ${mode}, ${source(!!this.worker.permissionMode)}${this.sandboxed ? ' · sandboxed: bypass keeps to the box' : ''}`);
    if (this.mode !== this.shownMode) {
      if (this.live && this.shownMode !== null) announce(`Permission mode: ${mode}`);
      this.shownMode = this.mode;
    }
    this.el.dataset.busy = String(this.busy);
    // A stopped chat only shows its history: nothing to change.
    const stopped = this.worker.status === 'stopped';
    this.modelMenu.button.disabled = stopped;
    this.modeMenu.button.disabled = stopped;
  }

  private modelName(value: string): string {
    return this.models?.find((m) => m.value === value)?.displayName ?? value;
  }

  private setModeItems(): void {
    this.modeMenu.setItems(Object.entries(this.modes.names).map(([v, name]) => {
      const b = h('button', { class: 'menu-item', type: 'button', 'data-value': v }, name);
      b.addEventListener('click', () => void this.chooseMode(v));
      return b;
    }), [this.modeNote]);
  }

  private async chooseMode(v: string): Promise<void> {
    this.modeMenu.close(true);
    if (v === 'bypassPermissions') {
      if (!(await confirmBypass(this.sandboxed))) return;
      this.bypassChosen = true;
    }
    await this.choose({ permissionMode: v });
  }

  private async loadModels(): Promise<void> {
    if (this.models !== null) return;
    try {
      const res = await this.api.request<{ models: ModelInfo[] }>('GET', `${this.path()}/models`);
      this.models = res.models;
    } catch (err) {
      this.modelMenu.setItems([], [this.modelNote, h('div', { class: 'menu-note' }, `Could not load the models: ${errorMessage(err)}`)]);
      return;
    }
    this.modelMenu.setItems(this.models.map((m) => {
      const b = h('button', { class: 'menu-item', type: 'button', 'data-value': m.value, title: m.description },
        m.displayName, m.description !== '' ? h('span', { class: 'menu-desc muted' }, ` · ${m.description}`) : null);
      b.addEventListener('click', () => {
        this.modelMenu.close(true);
        void this.choose({ model: m.value });
      });
      return b;
    }), [this.modelNote]);
    if (this.modelMenu.isOpen) this.modelMenu.open(); // focus the first item now that there is one
    this.render();
  }

  private setRules(rules: PermissionRule[]): void {
    this.rulesMenu.el.hidden = rules.length === 0;
    setText(this.rulesMenu.button, `Rules (${rules.length}) ▾`);
    this.rulesMenu.setItems(rules.map((r) => {
      const b = h('button', { class: 'menu-item rule-remove', type: 'button', 'data-rule': ruleSpec(r) },
        `Remove ${ruleSpec(r)} · ${destNames[r.destination] ?? r.destination}`);
      b.addEventListener('click', () => {
        this.rulesMenu.close(true);
        void this.removeRule(r.id);
      });
      return b;
    }), [h('div', { class: 'menu-note' }, 'Always allowed:')]);
  }

  private async choose(body: { model?: string; permissionMode?: string }): Promise<void> {
    if (this.worker.status === 'stopped' || this.busy) return;
    this.busy = true;
    this.render();
    try {
      const w = await this.api.request<Worker>('PATCH', this.path(), body);
      this.reportedMode = null;
      if (body.model !== undefined) this.reportedModel = null;
      this.worker = w;
    } catch (err) {
      this.cyclesWaiting = 0; // a refused change: do not go on cycling past it
      this.onError(errorMessage(err));
    } finally {
      this.busy = false;
      this.render();
    }
    if (this.cyclesWaiting > 0) {
      this.cyclesWaiting--;
      this.cycleMode();
    }
  }

  private async removeRule(id: string): Promise<void> {
    try {
      await this.api.request('DELETE', `/api/sessions/${encodeURIComponent(this.sid)}/rules/${encodeURIComponent(id)}`);
    } catch (err) {
      this.onError(errorMessage(err));
    }
  }

  private path(): string {
    return `/api/sessions/${encodeURIComponent(this.sid)}/workers/${encodeURIComponent(this.worker.id)}`;
  }
}
