// When the chat pane renders what its transcript has queued: on the next
// animation frame, a time-boxed slice at a time (frameBudgetMs), so input
// keeps its share of each frame. Split out of pane.ts.
import { NextTask } from './tasks';

/** Rendering time per frame; the rest of the frame stays free for input. */
const frameBudgetMs = 8;

/** What the loop renders: the transcript's queue. */
export interface Renderable {
  /** Lines are queued. */
  readonly pending: boolean;
  /** The history is being built off the document (no frame shows it). */
  readonly offDocument: boolean;
  /** Renders until deadline (performance.now() time); true when some are left. */
  flush(deadline: number): boolean;
}

export class RenderLoop {
  private frame = 0;
  private timer: number | undefined;
  /** Off-document slices run as tasks (no frame to wait for). */
  private readonly slices = new NextTask(() => this.flush());

  /** after: runs after every slice (copy buttons, scroll position). */
  constructor(private readonly target: Renderable, private readonly after: () => void) {}

  /**
   * Renders queued lines on the next frame (a timer while the page is hidden:
   * no frames then). History being built off the document shows in no frame,
   * so its next slice runs as the next task instead: input and frames still
   * get their turn between slices, and the main thread does not idle until
   * the next frame.
   */
  schedule(): void {
    if (this.frame !== 0 || this.timer !== undefined || this.slices.pending || !this.target.pending) return;
    if (this.target.offDocument) {
      this.slices.post();
    } else if (document.visibilityState === 'hidden') {
      this.timer = window.setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, 250);
    } else {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.flush();
      });
    }
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    window.clearTimeout(this.timer);
    this.slices.dispose();
  }

  private flush(): void {
    const more = this.target.flush(performance.now() + frameBudgetMs);
    this.after();
    if (more) this.schedule();
  }
}
