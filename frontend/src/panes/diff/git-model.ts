// "Git from the UI" (docs/api-extensions.md): the shapes of
// GET /api/sessions/:sid/git/status and the calls that change the index.
// Every call that changes something answers the new status.
import type { Api } from '../../api';
import type { DiffFile } from './model';

/** A file of one side of the index, with what proves the request acts on what was shown. */
export interface IndexFile extends DiffFile {
  hash: string;
  hunkIds: string[];
}

export interface GitStatus {
  branch: string | null;
  head: string | null;
  /** The remote Push goes to; null: nothing to push to. */
  remote: string | null;
  upstream: string | null;
  staged: IndexFile[];
  unstaged: IndexFile[];
}

export type Side = 'staged' | 'unstaged';

/** The REST calls of one session. */
export class GitClient {
  constructor(private readonly api: Api, private readonly sid: string) {}

  private path(what: string): string {
    return `/api/sessions/${encodeURIComponent(this.sid)}/git/${what}`;
  }

  status(): Promise<GitStatus> {
    return this.api.request('GET', this.path('status'));
  }

  /** Stages (unstaged side) or unstages (staged side) a whole file, or one hunk of it. */
  move(side: Side, f: IndexFile, hunk?: string): Promise<GitStatus> {
    const body = hunk === undefined ? { path: f.path, hash: f.hash } : { path: f.path, hunk };
    return this.api.request('POST', this.path(side === 'unstaged' ? 'stage' : 'unstage'), body);
  }

  discard(f: IndexFile, deleteUntracked: boolean): Promise<GitStatus> {
    const body: Record<string, unknown> = { path: f.path, hash: f.hash };
    if (deleteUntracked) body.deleteUntracked = true;
    return this.api.request('POST', this.path('discard'), body);
  }

  commit(message: string): Promise<GitStatus> {
    return this.api.request('POST', this.path('commit'), { message });
  }

  push(): Promise<GitStatus> {
    return this.api.request('POST', this.path('push'), {});
  }
}

/** What the agent is asked when the person wants it to write the commit message. */
export const askForMessage = 'Please write a commit message for the changes that are staged now (run `git diff --cached` to see them). ' +
  'Reply with the message only, in a code block: a summary line of at most 72 characters, a blank line, then a short body if it helps. ' +
  'Do not stage, commit or change any file.';
