// Top bar: the menu button (phones: opens the session drawer), the app name
// (a link home), the shortcut list, the theme toggle and the /ws/app
// connection indicator.
import { h } from '../dom';
import { ShortcutsHelp } from './shortcuts-help';
import { activeTheme, onThemeChange, setThemePref, themePref, type ThemePref } from '../theme';
import type { SocketState } from '../ws';

const labels: Record<SocketState, string> = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  offline: 'offline',
  stopped: 'offline',
  closed: 'offline',
};

const nextPref: Record<ThemePref, ThemePref> = { system: 'light', light: 'dark', dark: 'system' };
const prefIcon: Record<ThemePref, string> = { system: '◐', light: '☀', dark: '☾' };
const prefText: Record<ThemePref, string> = { system: 'Auto', light: 'Light', dark: 'Dark' };

export class Header {
  readonly el: HTMLElement;
  readonly menuButton: HTMLButtonElement;
  private readonly conn: HTMLElement;
  private readonly connText: HTMLElement;
  private readonly theme: HTMLButtonElement;
  private readonly unsubscribe: () => void;

  constructor(onHome: (ev: MouseEvent) => void, onMenu: () => void) {
    this.connText = h('span', { class: 'conn-text' });
    this.conn = h('span', { class: 'conn', role: 'status', 'aria-live': 'polite', title: 'Live updates from the server' }, this.connText);
    this.menuButton = h('button', { class: 'icon-btn menu-btn', type: 'button', 'aria-label': 'Sessions', 'aria-expanded': 'false', 'aria-controls': 'sidebar', onClick: onMenu }, '☰');
    this.theme = h('button', { class: 'btn btn-small theme-toggle', type: 'button', onClick: () => setThemePref(nextPref[themePref()]) });
    this.el = h(
      'header',
      { class: 'topbar' },
      this.menuButton,
      h('a', { class: 'brand', href: '/', onClick: onHome }, 'agentdesk'),
      h('span', { class: 'spacer' }),
      new ShortcutsHelp().el,
      this.theme,
      this.conn,
    );
    this.setState('connecting');
    this.renderTheme();
    this.unsubscribe = onThemeChange(() => this.renderTheme());
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** Adds items (the usage link and meter) before the theme toggle. */
  addItems(...els: HTMLElement[]): void {
    this.theme.before(...els);
  }

  setState(s: SocketState): void {
    this.conn.dataset.state = s === 'stopped' || s === 'closed' ? 'offline' : s;
    this.connText.textContent = labels[s];
    this.conn.setAttribute('aria-label', `Server: ${labels[s]}`);
  }

  private renderTheme(): void {
    const p = themePref();
    // The word goes on a phone (phone.css); the symbol and the label stay.
    this.theme.replaceChildren(h('span', { 'aria-hidden': 'true' }, prefIcon[p]), h('span', { class: 'theme-text' }, ` ${prefText[p]}`));
    const now = p === 'system' ? `follows the system (${activeTheme()} now)` : p;
    this.theme.title = `Theme: ${now}. Click for ${nextPref[p] === 'system' ? 'the system setting' : nextPref[p]}.`;
    // The name holds the word shown (speech control users say what they see).
    this.theme.setAttribute('aria-label', p === 'system' ? `Theme: ${prefText[p]}, ${now}` : `Theme: ${prefText[p]}`);
  }
}
