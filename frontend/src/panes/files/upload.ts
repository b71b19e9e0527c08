// Uploads of the Files tab: each file is its own request, so each has its
// own progress bar and its own answer; they go one after the other. A name
// that exists is asked about before anything replaces it.
import { ApiError, errorMessage } from '../../api';
import { askConfirm } from '../../components/dialog';
import { h } from '../../dom';
import type { FsApi } from './api';
import { formatSize, joinPath } from './model';

interface Job {
  dir: string;
  file: File;
  row: HTMLElement;
  bar: HTMLProgressElement;
  state: HTMLElement;
}

export class Uploads {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly queue: Job[] = [];
  private running = false;
  private abort: (() => void) | null = null;

  constructor(private readonly fs: FsApi, private readonly done: (dir: string) => void) {
    this.list = h('ul', { class: 'fu-list' });
    const clear = h('button', { class: 'btn btn-small fu-clear', type: 'button', onClick: () => this.clearFinished() }, 'Clear');
    this.el = h('section', { class: 'fu', 'aria-label': 'Uploads', hidden: true },
      h('div', { class: 'fu-head' }, h('span', null, 'Uploads'), clear), this.list);
  }

  /** Queues files for the folder dir. */
  add(dir: string, files: readonly File[]): void {
    for (const file of files) {
      const bar = h('progress', { class: 'fu-bar', max: 1, value: 0, 'aria-label': `Upload of ${file.name}` });
      const state = h('span', { class: 'fu-state' }, 'waiting');
      const row = h('li', { class: 'fu-row', 'data-name': file.name, 'data-state': 'waiting' },
        h('span', { class: 'fu-name', title: joinPath(dir, file.name) }, file.name),
        h('span', { class: 'fu-size' }, formatSize(file.size)), bar, state);
      this.list.append(row);
      this.queue.push({ dir, file, row, bar, state });
    }
    this.el.hidden = false;
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      await this.upload(job, false);
    }
    this.running = false;
  }

  private async upload(job: Job, replace: boolean): Promise<void> {
    this.set(job, 'sending', 'sending…');
    const up = this.fs.upload(job.dir, job.file, replace, (f) => {
      job.bar.value = f;
      job.state.textContent = `${Math.round(f * 100)}%`;
    });
    this.abort = up.abort;
    try {
      await up.done;
      job.bar.value = 1;
      this.set(job, 'done', 'done');
      this.done(job.dir);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && !replace) {
        await this.askReplace(job, err.message);
        return;
      }
      this.set(job, 'error', errorMessage(err));
    } finally {
      this.abort = null;
    }
  }

  private async askReplace(job: Job, why: string): Promise<void> {
    this.set(job, 'asking', 'exists');
    const where = job.dir === '.' ? 'the session’s folder' : job.dir;
    const a = await askConfirm({
      title: `Replace “${job.file.name}”?`,
      body: [`A file named “${job.file.name}” is already in ${where}.`, 'Replacing it overwrites it; git can bring it back only if it tracks the file.'],
      confirm: 'Replace',
      danger: true,
    });
    if (!a.ok) {
      this.set(job, 'skipped', `skipped (${why.replace(/\.$/, '')})`);
      return;
    }
    await this.upload(job, true);
  }

  private set(job: Job, state: string, text: string): void {
    job.row.dataset.state = state;
    job.state.textContent = text;
    job.state.title = text;
  }

  private clearFinished(): void {
    for (const row of [...this.list.children] as HTMLElement[]) {
      if (row.dataset.state !== 'sending' && row.dataset.state !== 'waiting' && row.dataset.state !== 'asking') row.remove();
    }
    this.el.hidden = this.list.children.length === 0;
  }

  dispose(): void {
    this.queue.length = 0;
    this.abort?.();
  }
}
