// The transcript's work queue: items are taken in order, a time-boxed slice
// at a time, so thousands of queued lines never block the page.

export class WorkQueue<T> {
  private items: T[] = [];
  private head = 0;

  get pending(): boolean {
    return this.head < this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Applies queued items in order until deadline (performance.now() time); true when some are left. */
  flush(deadline: number, apply: (item: T) => void): boolean {
    while (this.head < this.items.length) {
      const item = this.items[this.head++];
      if (item !== undefined) apply(item);
      if (performance.now() >= deadline) break;
    }
    if (this.head < this.items.length) return true;
    this.clear();
    return false;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
