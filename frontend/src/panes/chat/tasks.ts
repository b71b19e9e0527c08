// Runs a callback in a task of its own, once per post(), for work that shows
// in no frame (history built off the document): it need not wait for the
// next animation frame, and input and frames still get their turn between
// tasks. A MessageChannel message, not setTimeout(0), which browsers clamp.
// (scheduler.postTask at background priority was tried: under load it let
// the build starve and was no faster.)

export class NextTask {
  private posted = false;
  private disposed = false;
  private readonly channel = new MessageChannel();

  constructor(private readonly run: () => void) {
    this.channel.port1.onmessage = () => {
      this.posted = false;
      if (!this.disposed) this.run();
    };
  }

  /** True from post() until the callback runs. */
  get pending(): boolean {
    return this.posted;
  }

  /** Runs the callback in a later task (once, however often it is posted before). */
  post(): void {
    if (this.posted || this.disposed) return;
    this.posted = true;
    this.channel.port2.postMessage(null);
  }

  dispose(): void {
    this.disposed = true;
    this.channel.port1.close();
  }
}
