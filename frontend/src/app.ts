// The signed-in application: layout, the /ws/app socket feeding the store, the
// router, and the glue between sidebar, session views and shortcuts.
import { isUnauthorized, type Api, type DeleteOptions } from './api';
import { archiveSession } from './components/archive-session';
import { deleteSession } from './components/delete-session';
import { Drawer } from './components/drawer';
import { Header } from './components/header';
import { Inbox } from './components/inbox';
import type { AttentionItem } from './components/inbox-item';
import { NotifyBanner } from './components/notify-banner';
import { PushToggle } from './components/push-toggle';
import { Presence } from './presence';
import { ChatFind, installSearchKeys } from './components/chat-find';
import { revealMessage, SearchPalette } from './components/search-palette';
import { sessionLabel } from './components/session-row';
import { SessionView } from './components/session-view';
import { SkipLinks } from './components/skip-links';
import { Sidebar } from './components/sidebar';
import { h } from './dom';
import { isAgent, quickKind } from './kinds';
import { isPlainClick, parseRoute, Router, type Route } from './router';
import { BuiltinTools } from './tools/builtin';
import { Notifier } from './notify';
import { installShortcuts } from './shortcuts';
import { Store } from './store';
import { setBaseTitle } from './title';
import type { AppFrame, Session } from './types';
import { ReconnectingSocket, wsUrl } from './ws';
import { RateMeter } from './usage/meter';
import { UsagePage } from './usage/page';
import { WorktreesDialog } from './components/worktrees';
import { revealEvent, type RevealDetail } from './panes/chat/older';
import { rateLimits } from './usage/state';
import './usage/usage.css';

export class App {
  private readonly store = new Store();
  private readonly router: Router;
  private readonly header: Header;
  private readonly sidebar: Sidebar;
  private readonly main: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly drawer: Drawer;
  /** A session just created here: its view takes the focus when it shows. */
  private focusNext: string | null = null;
  private readonly views = new Map<string, SessionView>();
  private readonly socket: ReconnectingSocket;
  private readonly notifier: Notifier;
  private readonly inbox: Inbox;
  private readonly presence: Presence;
  /** agentdesk's own tools for the agents, served by this tab. */
  private readonly builtinTools: BuiltinTools;
  private readonly push: PushToggle;
  private readonly notifyBanner = new NotifyBanner(() => void this.push.turnOn());
  private readonly cleanups: (() => void)[] = [];
  /** A one-time message for the start page. */
  private flash: string | null = null;
  /** Whether the start page last showed the no-sessions state. */
  private shownEmpty: boolean | null = null;
  /** Sessions this page is deleting, so their disappearance needs no explanation. */
  private readonly deleting = new Set<string>();
  /** The usage page, built when first shown. */
  private usagePage: UsagePage | null = null;

  constructor(root: HTMLElement, private readonly api: Api, sessions: Session[], private readonly onUnauthorized: () => void) {
    this.router = new Router(() => this.renderMain());
    this.header = new Header((ev) => this.navigate(ev, { sid: null, wid: null }), () => this.drawer.toggle());
    this.sidebar = new Sidebar(api, (s) => this.onCreated(s), {
      open: (sid, ev) => this.navigate(ev, { sid, wid: null }),
      rename: async (sid, title) => this.store.upsertSession(await api.renameSession(sid, title)),
      remove: async (sid) => this.confirmRemove(sid),
      archive: async (sid) => this.confirmArchive(sid),
    });
    this.notice = h('div', { class: 'notice' });
    this.main = h('main', { class: 'main', id: 'main' }, this.notice);
    const skip = new SkipLinks(this.main);
    this.cleanups.push(() => skip.dispose());
    const app = h('div', { class: 'app' }, skip.el, this.header.el, this.notifyBanner.el, h('div', { class: 'body' }, this.sidebar.el, this.main));
    this.drawer = new Drawer(app, this.sidebar.el, this.header.menuButton);
    app.append(this.drawer.backdrop);
    this.inbox = new Inbox(api, { currentSid: () => this.router.current.sid, open: (sid, wid) => this.router.go({ sid, wid }) }, this.header.menuButton);
    this.sidebar.el.prepend(this.inbox.button);
    app.append(this.inbox.panel);
    this.push = new PushToggle(api);
    this.inbox.panel.append(this.push.el);
    this.cleanups.push(() => this.inbox.dispose());
    root.replaceChildren(app);
    this.cleanups.push(() => this.drawer.dispose(), () => this.header.dispose());
    const meter = new RateMeter((ev) => this.navigate(ev, { sid: null, wid: null, page: 'usage' }));
    const usageLink = (cls: string): HTMLAnchorElement => h('a', { class: cls, href: '/usage', onClick: (ev: MouseEvent) => this.navigate(ev, { sid: null, wid: null, page: 'usage' }) }, 'Usage');
    const worktreesButton = (cls: string): HTMLButtonElement => h('button', { class: cls, type: 'button', 'aria-label': 'Worktrees', title: 'Worktrees', onClick: () => void new WorktreesDialog(this.api).open() }, h('span', { class: 'wt-link-icon', 'aria-hidden': 'true' }, '⎇'), h('span', { class: 'wt-link-text' }, 'Worktrees'));
    this.header.addItems(usageLink('usage-link'), meter.el);
    this.header.addItems(worktreesButton('wt-link'));
    // Phones have no room in the top bar for these: the session drawer holds them.
    this.sidebar.el.append(h('nav', { class: 'sidebar-links', 'aria-label': 'More' }, usageLink('btn sidebar-link'), worktreesButton('btn sidebar-link')));
    this.cleanups.push(() => meter.dispose(), () => this.usagePage?.dispose());

    this.cleanups.push(this.store.subscribe(() => this.onStore()));
    this.notifier = new Notifier(this.store, {
      currentSid: () => this.router.current.sid,
      open: (sid, wid) => this.router.go({ sid, wid }),
      marksChanged: () => this.renderSidebar(),
    });
    this.cleanups.push(() => this.notifier.dispose());
    this.store.replaceAll(sessions);
    this.presence = new Presence((f) => this.socket.send(f), () => this.router.current.sid, (path) => this.router.go(parseRoute(path)));
    this.cleanups.push(() => this.presence.dispose());
    this.builtinTools = new BuiltinTools({
      sessionTitle: (sid) => this.store.session(sid)?.title ?? '',
      sessionCwd: (sid) => this.store.session(sid)?.cwd ?? '',
      open: (sid) => this.router.go({ sid, wid: null }),
    });
    this.cleanups.push(() => this.builtinTools.dispose());
    this.socket = new ReconnectingSocket({
      onOpen: () => this.presence.connected(),
      url: () => wsUrl('/ws/app'),
      onMessage: (data) => this.onFrame(data),
      onState: (s) => {
        this.header.setState(s);
        // Frames missed while away: read the stored rate-limit state again.
        if (s === 'open') rateLimits.load(this.api).catch(() => undefined);
      },
      onClose: (_ev, opened) => {
        if (!opened) this.checkAuth();
      },
    });
    this.cleanups.push(installShortcuts({
      newSession: () => this.openForm(),
      newTerminal: () => {
        const quick = quickKind();
        if (quick !== undefined) void this.currentView()?.addWorker(quick.kind);
      },
      selectTab: (i) => this.currentView()?.selectIndex(i),
      focusSessions: () => this.sidebar.focus(this.router.current.sid),
      focusPane: () => this.currentView()?.focusPane(),
      moveSession: (d) => this.moveSession(d),
      switchAgent: () => this.currentView()?.switchAgent(),
      cycleMode: () => this.currentView()?.cycleMode(),
    }));
    this.installSearch();
    this.renderMain();
  }

  /** The search palette and in-chat find, with their header buttons and keys. */
  private installSearch(): void {
    const palette = new SearchPalette({
      api: this.api,
      session: (id) => this.store.session(id),
      open: (sid, wid, uuid) => {
        this.router.go({ sid, wid: wid === '' ? null : wid });
        if (uuid === '') return;
        // The chat shows its newest page first: it reads older pages until the hit is among them.
        window.dispatchEvent(new CustomEvent<RevealDetail>(revealEvent, { detail: { sid, wid, uuid } }));
        revealMessage(this.main, uuid);
      },
    });
    const find = new ChatFind();
    this.header.el.insertBefore(find.button, this.header.el.querySelector('.theme-toggle'));
    this.header.el.insertBefore(palette.button, find.button);
    this.cleanups.push(installSearchKeys(() => palette.open(), find), () => palette.dispose(), () => find.dispose());
  }

  dispose(): void {
    this.socket.dispose();
    this.router.dispose();
    for (const c of this.cleanups) c();
    for (const v of this.views.values()) v.dispose();
    this.views.clear();
  }

  private onFrame(data: string | ArrayBuffer): void {
    if (typeof data !== 'string') return;
    try {
      const f = JSON.parse(data) as AppFrame | { type: 'attention'; items: AttentionItem[] };
      if (f.type === 'attention') this.inbox.set(f.items);
      else if (!rateLimits.applyFrame(f as { type?: string })) this.store.apply(f);
    } catch {
      // A frame we cannot parse changes nothing.
    }
  }

  /** A socket that never opened may mean the cookie is gone: ask REST, which says 401 clearly. */
  private checkAuth(): void {
    this.api.listSessions().then(
      (list) => this.store.replaceAll(list),
      (err: unknown) => {
        if (isUnauthorized(err)) this.onUnauthorized();
      },
    );
  }

  private renderSidebar(): void {
    this.sidebar.render(this.store.list(), this.router.current.sid, this.notifier.marks);
  }

  private onStore(): void {
    const sid = this.router.current.sid;
    this.renderSidebar();
    this.notifyBanner.update(this.store.list().some((s) => s.workers.some(isAgent)));
    let deletedCurrent = false;
    for (const [id, view] of this.views) {
      const s = this.store.session(id);
      if (s === undefined) {
        if (id === sid) deletedCurrent = true;
        if (id === sid && !this.deleting.has(id)) this.flash = 'The session you were looking at was deleted.';
        view.dispose();
        this.views.delete(id);
      } else {
        view.update(s);
      }
    }
    for (const id of this.deleting) if (this.store.session(id) === undefined) this.deleting.delete(id);
    if (deletedCurrent) {
      // Deleted here or elsewhere (then the flash says why): go to the start page.
      this.router.go({ sid: null, wid: null }, true);
    } else if (sid !== null && !this.views.has(sid)) {
      this.renderMain();
    } else if (sid === null && this.shownEmpty !== (this.store.list().length === 0)) {
      this.showNotice(null); // the first session was created, or the last deleted
    }
  }

  private renderMain(): void {
    const { sid, wid } = this.router.current;
    this.header.el.parentElement?.toggleAttribute('data-in-session', sid !== null && this.router.current.page !== 'usage');
    if (sid !== null) this.drawer.close(false);
    this.notifier.seen();
    this.inbox.routeChanged();
    this.presence.update();
    this.builtinTools.view(sid);
    this.renderSidebar();
    for (const [id, v] of this.views) if (id !== sid) v.hide();
    if (this.usagePage !== null) this.usagePage.el.hidden = this.router.current.page !== 'usage';
    if (this.router.current.page === 'usage') {
      this.showUsage();
      return;
    }
    const s = sid === null ? undefined : this.store.session(sid);
    if (s === undefined) {
      this.showNotice(sid);
      return;
    }
    this.notice.hidden = true;
    let view = this.views.get(s.id);
    if (view === undefined) {
      view = new SessionView(s, {
        api: this.api,
        store: this.store,
        // The constructor selects a tab and reports it before the view is
        // stored; re-entering renderMain then would build a second view.
        onSelected: (vsid, vwid) => {
          if (this.views.has(vsid) && this.router.current.sid === vsid) this.router.go({ sid: vsid, wid: vwid }, true);
        },
      });
      view.hide();
      this.views.set(s.id, view);
      this.main.append(view.el);
    }
    view.show(wid);
    if (this.focusNext === s.id) {
      this.focusNext = null;
      view.focusPane();
    }
    setBaseTitle(`${s.title || s.cwd} — agentdesk`);
  }

  private showUsage(): void {
    this.notice.hidden = true;
    if (this.usagePage === null) {
      this.usagePage = new UsagePage(this.api, (sid) => this.store.session(sid)?.title ?? null);
      this.main.append(this.usagePage.el);
    }
    this.usagePage.el.hidden = false;
    void this.usagePage.load();
    setBaseTitle('Usage — agentdesk');
  }

  private showNotice(sid: string | null): void {
    if (this.router.current.page === 'usage') return; // the usage page is shown instead
    setBaseTitle('agentdesk');
    const home = h('a', { href: '/', onClick: (ev: MouseEvent) => this.navigate(ev, { sid: null, wid: null }) }, 'Back to the start page');
    if (sid === null) {
      const flash = this.flash === null ? null : h('p', { class: 'flash', role: 'status' }, this.flash);
      this.flash = null;
      this.notice.replaceChildren(flash ?? '', this.startPage());
    } else if (!this.store.loaded) {
      this.notice.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    } else {
      this.notice.replaceChildren(h('h2', null, 'Session not found'),
        h('p', null, 'There is no session with this address. It may have been deleted.'), h('p', null, home));
    }
    this.notice.hidden = false;
  }

  private currentView(): SessionView | undefined {
    const sid = this.router.current.sid;
    return sid === null ? undefined : this.views.get(sid);
  }

  private navigate(ev: MouseEvent | KeyboardEvent | null, r: Route): void {
    if (ev instanceof MouseEvent && !isPlainClick(ev)) return; // let the browser open a new tab
    ev?.preventDefault();
    this.router.go(r);
  }

  /** The start page: what to do next, depending on whether sessions exist. */
  private startPage(): HTMLElement {
    this.shownEmpty = this.store.list().length === 0;
    const empty = this.store.loaded && this.store.list().length === 0;
    const create = h('button', { class: 'btn btn-primary', type: 'button', onClick: () => this.openForm() },
      empty ? 'Start your first session' : 'Start a new session');
    if (empty) {
      return h('div', { class: 'empty-state' },
        h('h2', null, 'No sessions yet'),
        h('p', null, 'A session is a folder where Claude works: a chat with Claude, terminals, and a live diff of what changed.'),
        h('ol', null,
          h('li', null, 'Create a session and give it the folder of a project (a git repository gets a diff, and can get its own worktree).'),
          h('li', null, 'Type what you want done in the chat, or open Claude’s own terminal UI.')),
        create);
    }
    const list = h('button', { class: 'btn', type: 'button', onClick: () => this.drawer.open() }, 'Show sessions');
    return h('div', { class: 'empty-state' },
      h('h2', null, 'Welcome to agentdesk'),
      h('p', null, this.drawer.phone
        ? 'Pick a session from the list, or create a new one.'
        : 'Pick a session on the left, or create one with “New session” (Alt+N).'),
      h('div', { class: 'form-actions' }, this.drawer.phone ? list : null, create));
  }

  /** Opens the new-session form (in the drawer on phones). */
  private openForm(): void {
    this.drawer.open();
    this.sidebar.form.open();
  }

  private onCreated(s: Session): void {
    this.store.upsertSession(s);
    this.focusNext = s.id;
    this.drawer.close(false);
    this.router.go({ sid: s.id, wid: null });
  }

  /** The delete button of a session: the dialog, then the request. */
  private async confirmRemove(sid: string): Promise<void> {
    const s = this.store.session(sid);
    if (s === undefined) return;
    await deleteSession(this.api, s, (id, o) => this.removeSession(id, o));
  }

  /** The archive button of a worktree session: the worktrees view's dialog, then the request. */
  private async confirmArchive(sid: string): Promise<void> {
    const s = this.store.session(sid);
    if (s?.worktree == null) return;
    const done = await archiveSession(this.api, { sessionId: sid, title: sessionLabel(s), path: s.worktree.path });
    if (done !== null) this.store.upsertSession(done);
  }

  private async removeSession(sid: string, o: DeleteOptions): Promise<void> {
    this.deleting.add(sid);
    try {
      await this.api.deleteSession(sid, o);
    } catch (err) {
      this.deleting.delete(sid);
      throw err;
    }
    this.store.removeSession(sid);
  }

  private moveSession(delta: number): void {
    const list = this.store.list();
    if (list.length === 0) return;
    const i = list.findIndex((s) => s.id === this.router.current.sid);
    const next = list[i < 0 ? 0 : Math.max(0, Math.min(list.length - 1, i + delta))];
    if (next !== undefined) this.router.go({ sid: next.id, wid: null });
  }
}
