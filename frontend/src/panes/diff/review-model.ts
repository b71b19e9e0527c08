// Review comments on the diff (docs/api-extensions.md, "Review comments"):
// the stored comment, and the REST calls that add, edit, delete, list and
// send them.
import type { Api } from '../../api';

export type CommentSide = 'old' | 'new';

/** Where a comment is: a file, a side of the diff and a line range on it. */
export interface Place {
  path: string;
  side: CommentSide;
  startLine: number;
  endLine: number;
}

export interface ReviewComment extends Place {
  id: string;
  body: string;
  /** The lines of the range as they were when the comment was made. */
  quote: string[];
  base: string;
  status: 'draft' | 'sent';
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  /** The quoted lines are no longer what the file has there. */
  outdated: boolean;
}

export interface ReviewSent {
  workerId: string;
  sent: number;
  comments: ReviewComment[];
}

export class ReviewClient {
  constructor(private readonly api: Api, private readonly sid: string) {}

  private get base(): string {
    return `/api/sessions/${encodeURIComponent(this.sid)}/comments`;
  }

  async list(): Promise<ReviewComment[]> {
    return (await this.api.request<{ comments: ReviewComment[] }>('GET', this.base)).comments;
  }

  add(p: Place, body: string): Promise<ReviewComment> {
    return this.api.request('POST', this.base, { ...p, body });
  }

  edit(id: string, body: string): Promise<ReviewComment> {
    return this.api.request('PATCH', `${this.base}/${encodeURIComponent(id)}`, { body });
  }

  remove(id: string): Promise<void> {
    return this.api.request('DELETE', `${this.base}/${encodeURIComponent(id)}`);
  }

  send(): Promise<ReviewSent> {
    return this.api.request('POST', `${this.base}/send`);
  }
}

/** "src/a.go:3-5 (new)". */
export function placeLabel(p: Place): string {
  const lines = p.startLine === p.endLine ? `${p.startLine}` : `${p.startLine}-${p.endLine}`;
  return `${p.path}:${lines} (${p.side})`;
}
