// The scrolling column of file sections. Sections are built when they come
// within `buildMargin` of the viewport and dropped back to placeholders past
// `dropMargin`, both through IntersectionObserver on the scroller. A new
// frame reconciles sections by path (unchanged files keep their DOM) and
// keeps the first visible file at the same place on screen.
import { reconcile } from '../../dom';
import type { DiffFile } from './model';
import { FileSection } from './section';

interface Anchor {
  path: string;
  delta: number;
}

const buildMargin = '800px 0px';
const dropMargin = '4000px 0px';

export interface SectionListDeps {
  fetchFull(path: string): Promise<DiffFile>;
  /** The file at the top of the viewport changed (scrolling). */
  onCurrent(path: string): void;
}

export class SectionList {
  /** The scroller. */
  readonly el: HTMLElement;
  private readonly inner: HTMLElement;
  private readonly sections = new Map<string, FileSection>();
  private readonly els = new Map<string, HTMLElement>();
  private readonly byEl = new WeakMap<Element, FileSection>();
  private readonly collapsed = new Map<string, boolean>();
  private order: FileSection[] = [];
  private readonly near: IntersectionObserver;
  private readonly far: IntersectionObserver;
  private spyFrame = 0;
  private current = '';
  /** scrollTop right after scrollTo(): the spy leaves the picked file current until the user scrolls. */
  private pickedTop = -1;
  private visible = false;
  /** Where the view was at the last scroll: put back when the scroller is shown again. */
  private lastAnchor: Anchor | null = null;
  private lastHeight = 0;
  private readonly resize: ResizeObserver;

  constructor(private readonly deps: SectionListDeps) {
    this.inner = document.createElement('div');
    this.inner.className = 'dd-sections';
    this.el = document.createElement('div');
    this.el.className = 'dd-scroll';
    this.el.tabIndex = -1;
    this.el.append(this.inner);
    this.near = new IntersectionObserver((es) => this.onNear(es), { root: this.el, rootMargin: buildMargin });
    this.far = new IntersectionObserver((es) => this.onFar(es), { root: this.el, rootMargin: dropMargin });
    this.el.addEventListener('scroll', () => this.scheduleSpy(), { passive: true });
    // Hidden with display:none (this pane's tab or the whole session view), a
    // scroller may lose its offset (Chromium keeps it, not every engine does):
    // its height going from 0 to something is the moment to put it back.
    this.resize = new ResizeObserver(() => {
      const height = this.el.clientHeight;
      if (this.lastHeight === 0 && height > 0) this.restore(this.lastAnchor);
      this.lastHeight = height;
    });
    this.resize.observe(this.el);
  }

  /** Whether the pane is shown: hidden panes intersect nothing, which must not unbuild. */
  setVisible(v: boolean): void {
    this.visible = v;
    if (v) this.scheduleSpy();
  }

  setFiles(files: readonly DiffFile[]): void {
    const anchor = this.anchor();
    const keep = new Set(files.map((f) => f.path));
    for (const [path, s] of this.sections) {
      if (keep.has(path)) continue;
      this.near.unobserve(s.el);
      this.far.unobserve(s.el);
      this.sections.delete(path);
      this.collapsed.delete(path);
    }
    reconcile(this.inner, files, (f) => f.path, this.els, (f) => this.create(f), (el, f) => this.byEl.get(el)?.setFile(f));
    this.order = files.map((f) => this.sections.get(f.path)).filter((s): s is FileSection => s !== undefined);
    this.restore(anchor);
    this.scheduleSpy();
  }

  scrollTo(path: string): void {
    const s = this.sections.get(path);
    if (s === undefined) return;
    this.el.scrollTop = s.el.offsetTop;
    this.current = path;
    this.pickedTop = this.el.scrollTop;
  }

  toggle(path: string): void {
    const s = this.sections.get(path);
    if (s === undefined) return;
    s.setCollapsed(!s.collapsed);
    this.collapsed.set(path, s.collapsed);
  }

  setAllCollapsed(collapsed: boolean): void {
    const anchor = this.anchor();
    for (const s of this.order) {
      s.setCollapsed(collapsed);
      this.collapsed.set(s.file.path, collapsed);
    }
    const s = anchor === null ? undefined : this.sections.get(anchor.path);
    this.el.scrollTop = s === undefined ? 0 : s.el.offsetTop;
  }

  dispose(): void {
    cancelAnimationFrame(this.spyFrame);
    this.resize.disconnect();
    this.near.disconnect();
    this.far.disconnect();
  }

  private create(f: DiffFile): HTMLElement {
    const s = new FileSection(f, this.collapsed.get(f.path) ?? false, {
      fetchFull: (p) => this.deps.fetchFull(p),
      onCollapse: (p, c) => this.collapsed.set(p, c),
    });
    this.sections.set(f.path, s);
    this.byEl.set(s.el, s);
    this.near.observe(s.el);
    this.far.observe(s.el);
    return s.el;
  }

  private onNear(entries: IntersectionObserverEntry[]): void {
    for (const e of entries) if (e.isIntersecting) this.byEl.get(e.target)?.build();
  }

  private onFar(entries: IntersectionObserverEntry[]): void {
    if (!this.visible || this.el.clientHeight === 0) return;
    const gone: FileSection[] = [];
    for (const e of entries) {
      const s = e.isIntersecting ? undefined : this.byEl.get(e.target);
      if (s?.isBuilt === true) gone.push(s);
    }
    // All reads, then all writes: one layout instead of one per section.
    const heights = gone.map((s) => s.el.offsetHeight);
    gone.forEach((s, i) => s.unbuild(heights[i]!));
  }

  /** Index of the first section whose bottom is below the top of the viewport (binary search). */
  private firstVisible(): number {
    const top = this.el.scrollTop;
    let lo = 0;
    let hi = this.order.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const el = this.order[mid]!.el;
      if (el.offsetTop + el.offsetHeight <= top + 1) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first visible file and its offset from the top of the viewport; null at the very top. */
  private anchor(): Anchor | null {
    if (this.el.scrollTop <= 0 || this.order.length === 0) return null;
    const s = this.order[this.firstVisible()];
    return s === undefined ? null : { path: s.file.path, delta: s.el.offsetTop - this.el.scrollTop };
  }

  /** Scrolls so the anchor's file is where it was (no-op if it is gone). */
  private restore(a: Anchor | null): void {
    const s = a === null ? undefined : this.sections.get(a.path);
    if (a !== null && s !== undefined) this.el.scrollTop = s.el.offsetTop - a.delta;
  }

  private scheduleSpy(): void {
    if (this.spyFrame !== 0) return;
    this.spyFrame = requestAnimationFrame(() => {
      this.spyFrame = 0;
      if (!this.visible || this.el.clientHeight === 0) return;
      this.lastAnchor = this.anchor();
      if (this.order.length === 0 || this.el.scrollTop === this.pickedTop) return;
      this.pickedTop = -1;
      const path = this.order[this.firstVisible()]?.file.path;
      if (path !== undefined && path !== this.current) {
        this.current = path;
        this.deps.onCurrent(path);
      }
    });
  }
}
