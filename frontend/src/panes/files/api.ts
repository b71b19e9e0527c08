// The Files tab's REST calls (docs/api-extensions.md, "Files"): listing,
// viewing, saving with If-Match, uploads with progress (XMLHttpRequest, the
// only browser API that reports upload progress), folder operations.
import { ApiError, errorMessage, type Api } from '../../api';

export type EntryType = 'dir' | 'file' | 'symlink' | 'other';
export type GitMark = 'modified' | 'added' | 'untracked' | 'ignored' | 'conflict' | 'changed';

export interface FsEntry {
  name: string;
  type: EntryType;
  size: number;
  mtime: string;
  exec?: boolean;
  target?: string;
  points?: 'dir' | 'file' | 'other' | 'outside' | 'broken';
  git?: GitMark;
  folded?: boolean;
}

export interface FsPage {
  path: string;
  entries: FsEntry[];
  next: string;
  total: number;
  repo: boolean;
}

export type ViewKind = 'text' | 'markdown' | 'image' | 'pdf' | 'binary';

export interface FsView {
  path: string;
  name: string;
  size: number;
  mtime: string;
  etag: string;
  kind: ViewKind;
  contentType: string;
  partial: boolean;
  text?: string;
  html?: string;
  editable: boolean;
}

export interface FsInfo extends FsEntry {
  path: string;
  repo: boolean;
  tracked: boolean;
  untracked: boolean;
}

export interface Saved {
  path: string;
  size: number;
  mtime: string;
  etag?: string;
}

export interface ArchiveSize {
  files: number;
  folders: number;
  bytes: number;
  skipped: number;
}

export type ArchiveFormat = 'zip' | 'tar.gz';

/** An upload in flight: its promise, and abort. */
export interface UploadJob {
  done: Promise<Saved[]>;
  abort(): void;
}

const enc = encodeURIComponent;

/** The error of a failed answer ({"error","code"}), as Api does. */
async function answerError(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as { error?: unknown; code?: unknown };
    if (typeof body.error === 'string' && body.error !== '') message = body.error;
    if (typeof body.code === 'string' && body.code !== '') code = body.code;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(res.status, code, message);
}

export class FsApi {
  readonly base: string;

  constructor(private readonly api: Api, sid: string) {
    this.base = `/api/sessions/${enc(sid)}`;
  }

  private q(route: string, params: Record<string, string>): string {
    return `${this.base}/fs${route}?${new URLSearchParams(params).toString()}`;
  }

  list(path: string, cursor = ''): Promise<FsPage> {
    return this.api.request('GET', this.q('/list', cursor === '' ? { path } : { path, cursor }));
  }

  view(path: string): Promise<FsView> {
    return this.api.request('GET', this.q('/view', { path }));
  }

  stat(path: string): Promise<FsInfo> {
    return this.api.request('GET', this.q('/stat', { path }));
  }

  archiveSize(path: string): Promise<ArchiveSize> {
    return this.api.request('GET', this.q('/archive', { path, format: 'zip', size: '1' }));
  }

  mkdir(path: string): Promise<void> {
    return this.api.request('POST', `${this.base}/fs/mkdir`, { path });
  }

  move(from: string, to: string): Promise<void> {
    return this.api.request('POST', `${this.base}/fs/move`, { from, to });
  }

  remove(path: string, recursive: boolean): Promise<void> {
    return this.api.request('DELETE', this.q('', recursive ? { path, recursive: '1' } : { path }));
  }

  /** The session's files matching q, best first (the `@` completion's index). */
  async find(q: string): Promise<string[]> {
    const r = await this.api.request<{ files: string[] }>('GET', `${this.base}/files?${new URLSearchParams({ q, limit: '50' }).toString()}`);
    return r.files;
  }

  fileUrl(path: string, download = false): string {
    return this.q('/file', download ? { path, download: '1' } : { path });
  }

  archiveUrl(path: string, format: ArchiveFormat): string {
    return this.q('/archive', { path, format });
  }

  /** The whole file as text with its ETag, for the editor. */
  async text(path: string): Promise<{ text: string; etag: string }> {
    const res = await this.fetch(this.fileUrl(path), { headers: { Accept: '*/*' } });
    return { text: await res.text(), etag: res.headers.get('ETag') ?? '' };
  }

  /**
   * Saves text: over the version etag names (If-Match), or as a new file
   * (etag null: If-None-Match: *). A file changed since answers 412 conflict.
   */
  async save(path: string, text: string, etag: string | null): Promise<Saved> {
    const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8', Accept: 'application/json' };
    if (etag === null) headers['If-None-Match'] = '*';
    else headers['If-Match'] = etag;
    const res = await this.fetch(this.fileUrl(path), { method: 'PUT', headers, body: text });
    return (await res.json()) as Saved;
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { credentials: 'same-origin', ...init });
    } catch (err) {
      throw new ApiError(0, 'network', `Cannot reach the server (${errorMessage(err)}). Check that agentdesk is still running.`);
    }
    if (!res.ok) throw await answerError(res);
    return res;
  }

  /** Uploads one file into dir; progress gets the fraction sent (0 to 1). */
  upload(dir: string, file: File, replace: boolean, progress: (sent: number) => void): UploadJob {
    const xhr = new XMLHttpRequest();
    const done = new Promise<Saved[]>((resolve, reject) => {
      xhr.open('POST', this.q('/upload', replace ? { path: dir, replace: '1' } : { path: dir }));
      xhr.responseType = 'text';
      xhr.upload.onprogress = (ev) => {
        if (ev.lengthComputable && ev.total > 0) progress(ev.loaded / ev.total);
      };
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve((JSON.parse(xhr.responseText) as { files: Saved[] }).files);
          return;
        }
        let code = `http_${xhr.status}`;
        let message = `${xhr.status} ${xhr.statusText}`;
        try {
          const body = JSON.parse(xhr.responseText) as { error?: string; code?: string };
          code = body.code ?? code;
          message = body.error ?? message;
        } catch {
          // not JSON
        }
        reject(new ApiError(xhr.status, code, message));
      };
      xhr.onerror = () => reject(new ApiError(0, 'network', 'The upload broke off: the server could not be reached.'));
      xhr.onabort = () => reject(new ApiError(0, 'aborted', 'Upload cancelled.'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
    return { done, abort: () => xhr.abort() };
  }
}
