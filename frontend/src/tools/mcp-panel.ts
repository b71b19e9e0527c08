// The agent's MCP servers and tools (docs/api-extensions.md, "MCP servers of
// a session"): the session's servers, agentdesk's own and the agent's other
// ones with their state and tools, an on/off switch each, a remove button
// for the session's, an add form, and the tools providers give the session.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import { askConfirm } from '../components/dialog';
import { learnProviders } from './providers';

interface ServerView {
  name: string;
  type?: string;
  command?: string;
  url?: string;
  enabled: boolean;
  source: 'session' | 'agentdesk' | 'agent';
  status: string | null;
  error?: string;
  tools: string[];
}

interface BridgeTool {
  name: string;
  description: string;
  provider: string;
}

const enc = encodeURIComponent;

/** "KEY=value" (or "Name: value") lines as an object; null with a bad line. */
function pairs(text: string, sep: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter((l) => l !== '')) {
    const i = line.indexOf(sep);
    if (i <= 0) return null;
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

export class McpPanel {
  readonly el: HTMLElement;
  private readonly listEl = h('ul', { class: 'mcp-list', 'aria-label': 'MCP servers' });
  private readonly toolsEl = h('ul', { class: 'mcp-tools', 'aria-label': 'Tools from providers' });
  private readonly error = h('p', { class: 'form-error', role: 'alert' });

  constructor(private readonly api: Api, private readonly sid: string) {
    this.el = h('section', { class: 'agent-section mcp-panel' },
      h('h3', null, 'MCP servers'), this.listEl, this.error, this.addForm(),
      h('h3', null, 'Tools from the browser and other providers'), this.toolsEl);
    void this.refresh();
  }

  private base(): string {
    return `/api/sessions/${enc(this.sid)}/mcp-servers`;
  }

  async refresh(): Promise<void> {
    try {
      const [servers, tools] = await Promise.all([
        this.api.request<{ servers: ServerView[] }>('GET', this.base()),
        this.api.request<{ tools: BridgeTool[] }>('GET', `/api/sessions/${enc(this.sid)}/tools`),
      ]);
      this.listEl.replaceChildren(...servers.servers.map((s) => this.row(s)));
      if (servers.servers.length === 0) this.listEl.append(h('li', { class: 'mcp-empty' }, 'No MCP servers yet. The agent starts them when it starts; add one below.'));
      learnProviders(tools.tools);
      this.toolsEl.replaceChildren(...tools.tools.map((t) => h('li', null,
        h('code', null, t.name), h('span', { class: 'tool-provider' }, `from ${t.provider}`),
        t.description !== '' ? h('span', { class: 'mcp-desc' }, t.description) : null)));
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }

  private row(s: ServerView): HTMLElement {
    const status = s.status ?? (s.enabled ? 'starts with the agent' : 'off');
    const toggle = h('input', { type: 'checkbox', role: 'switch', checked: s.enabled, 'aria-label': `${s.name} on` });
    toggle.disabled = s.source === 'agentdesk';
    toggle.addEventListener('change', () => void this.act('PATCH', `${this.base()}/${enc(s.name)}`, { enabled: toggle.checked }));
    const remove = s.source !== 'session' ? null
      : h('button', { class: 'btn btn-small', type: 'button', 'aria-label': `Remove ${s.name}`, onClick: () => void this.remove(s.name) }, 'Remove');
    const what = s.command !== undefined && s.command !== '' ? s.command : s.url ?? '';
    return h('li', { class: 'mcp-row', 'data-name': s.name, 'data-status': s.status ?? 'none' },
      h('div', { class: 'mcp-head' },
        h('strong', null, s.name),
        h('span', { class: 'mcp-source' }, s.source === 'session' ? s.type ?? '' : s.source === 'agentdesk' ? 'agentdesk’s tools' : 'from the agent’s settings'),
        h('span', { class: 'mcp-status', 'data-status': s.status ?? 'none' }, status),
        h('label', { class: 'mcp-toggle' }, toggle, h('span', null, 'On')),
        remove),
      what !== '' ? h('code', { class: 'mcp-what' }, what) : null,
      s.error !== undefined && s.error !== '' ? h('p', { class: 'form-error' }, s.error) : null,
      s.tools.length > 0 ? h('details', { class: 'mcp-tool-list' }, h('summary', null, `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`),
        h('p', null, s.tools.join(', '))) : null);
  }

  private async remove(name: string): Promise<void> {
    const a = await askConfirm({ title: `Remove ${name}?`, body: ['The agent runs without it from your next message.'], confirm: 'Remove', danger: true });
    if (a.ok) await this.act('DELETE', `${this.base()}/${enc(name)}`);
  }

  private async act(method: string, path: string, body?: unknown): Promise<boolean> {
    this.error.textContent = '';
    try {
      await this.api.request(method, path, body);
      await this.refresh();
      return true;
    } catch (err) {
      this.error.textContent = errorMessage(err);
      await this.refresh();
      return false;
    }
  }

  private addForm(): HTMLElement {
    const name = h('input', { name: 'name', required: true, placeholder: 'e.g. github', autocomplete: 'off' });
    const type = h('select', { name: 'type' }, h('option', { value: 'stdio' }, 'Command (stdio)'), h('option', { value: 'http' }, 'URL (HTTP)'));
    const command = h('input', { name: 'command', placeholder: 'e.g. npx' });
    const args = h('textarea', { name: 'args', rows: 2, placeholder: 'Arguments, one per line' });
    const env = h('textarea', { name: 'env', rows: 2, placeholder: 'KEY=value, one per line (kept secret)' });
    const url = h('input', { name: 'url', type: 'url', placeholder: 'https://…/mcp' });
    const headers = h('textarea', { name: 'headers', rows: 2, placeholder: 'Authorization: Bearer …, one per line (kept secret)' });
    const stdio = h('div', { class: 'mcp-stdio' }, lbl('Command', command), lbl('Arguments', args), lbl('Environment', env));
    const http = h('div', { class: 'mcp-http', hidden: true }, lbl('URL', url), lbl('Headers', headers));
    type.addEventListener('change', () => {
      stdio.hidden = type.value !== 'stdio';
      http.hidden = type.value !== 'http';
    });
    const err = h('p', { class: 'form-error', role: 'alert' });
    const form = h('form', { class: 'mcp-add', 'aria-label': 'Add an MCP server' },
      h('h4', null, 'Add a server'), lbl('Name', name), lbl('Type', type), stdio, http,
      h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-primary', type: 'submit' }, 'Add server')), err);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      err.textContent = '';
      const body: Record<string, unknown> = { name: name.value.trim(), type: type.value };
      if (type.value === 'stdio') {
        const e = pairs(env.value, '=');
        if (e === null) return void (err.textContent = 'Write each variable as KEY=value on its own line.');
        Object.assign(body, { command: command.value.trim(), args: args.value.split('\n').map((a) => a.trim()).filter((a) => a !== ''), env: e });
      } else {
        const hd = pairs(headers.value, ':');
        if (hd === null) return void (err.textContent = 'Write each header as Name: value on its own line.');
        Object.assign(body, { url: url.value.trim(), headers: hd });
      }
      void this.api.request('POST', this.base(), body).then(() => {
        form.reset();
        stdio.hidden = false;
        http.hidden = true;
        void this.refresh();
      }, (e: unknown) => (err.textContent = errorMessage(e)));
    });
    return form;
  }
}

function lbl(text: string, control: HTMLElement): HTMLElement {
  return h('label', { class: 'limits-row' }, h('span', { class: 'limits-label' }, text), control);
}
