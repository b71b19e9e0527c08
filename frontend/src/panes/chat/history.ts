// The stored history of a conversation, read over REST before the socket
// opens: the chat reads only its newest page (readBack; older pages as the
// person scrolls up, older.ts), and reads the whole history forward
// (readHistory) only when the backwards read fails. Not the socket's
// replay: it sends one WebSocket frame per message, and Chromium spends a
// task of ~0.13–0.18 ms per frame whatever it holds. The socket connects
// after the last uuid read, so it replays only what was stored since, and
// the seam neither loses nor doubles a message (API.md: every uuid REST
// returns is a valid cursor).
import { cleanStart } from './cut';
import { isObject, type CliMessage } from './protocol';

/**
 * Messages in the first REST request; each next one asks for twice as many,
 * up to the API's maximum. A small first page starts the building early,
 * and the next page is on its way while the previous one is built.
 */
export const firstPageSize = 1000;
/** The API's maximum page. */
export const maxPageSize = 5000;
/** Pages read before giving the rest to the socket's replay (bounds the loop). */
const maxPages = 200;

/** One stored message as REST returns it (an sdk-message frame without type). */
export interface StoredMessage {
  message: CliMessage;
  html: Record<string, string> | undefined;
}

/** Reads one page of stored messages after the uuid after ('' = from the start). */
export type FetchPage = (after: string, limit: number) => Promise<unknown>;

/** The messages and hasMore of a REST answer; null when it has not that shape. */
export function parsePage(v: unknown): { messages: StoredMessage[]; hasMore: boolean } | null {
  if (!isObject(v) || !Array.isArray(v.messages)) return null;
  const messages: StoredMessage[] = [];
  for (const el of v.messages) {
    if (!isObject(el) || !isObject(el.message)) return null;
    const html = isObject(el.html) ? (el.html as Record<string, string>) : undefined;
    messages.push({ message: el.message as CliMessage, html });
  }
  return { messages, hasMore: v.hasMore === true };
}

/**
 * Reads pages after `after` until the last one, handing each page's messages
 * to deliver in order, and returns the uuid of the last message delivered
 * (after when none). It stops early, without error, when a request fails or
 * stop() turns true: the socket's replay from that cursor covers the rest.
 */
export async function readHistory(
  fetchPage: FetchPage,
  after: string,
  deliver: (msgs: StoredMessage[]) => void,
  stop: () => boolean,
): Promise<string> {
  let cursor = after;
  let size = firstPageSize;
  for (let i = 0; i < maxPages; i++, size = Math.min(size * 2, maxPageSize)) {
    let page: ReturnType<typeof parsePage>;
    try {
      page = parsePage(await fetchPage(cursor, size));
    } catch {
      return cursor;
    }
    if (page === null || stop()) return cursor;
    deliver(page.messages);
    const uuid = lastUuid(page.messages);
    if (uuid === null) return cursor;
    cursor = uuid;
    if (!page.hasMore) return cursor;
  }
  return cursor;
}

/**
 * Messages of the newest page, read first when a chat opens: a screenful
 * and then some, so the newest messages show at once whatever the chat's
 * length (older pages come as the person scrolls up: older.ts).
 */
export const newestPageSize = 200;

/** Reads the newest limit messages before the uuid before ('' = the end): GET …/messages?before=. */
export type FetchOlder = (before: string, limit: number) => Promise<unknown>;

/** A page read backwards, cut where it renders on its own. */
export interface BackPage {
  /** The page's messages from the cut, oldest first. */
  messages: StoredMessage[];
  /** The uuid the next older read goes before; '' when nothing is older. */
  next: string;
}

/**
 * Reads the page of limit messages before `before` ('' = the newest page)
 * and cuts it where no message refers to a tool call before it (cut.ts):
 * the messages before the cut come again with the next older page, so a
 * result and its call stay in one page. Null when the answer has not the
 * API's shape; a failed request throws.
 */
export async function readBack(fetchOlder: FetchOlder, before: string, limit: number): Promise<BackPage | null> {
  const page = parsePage(await fetchOlder(before, limit));
  if (page === null) return null;
  const cut = page.hasMore ? cleanStart(page.messages.map((m) => m.message)) : 0;
  const messages = page.messages.slice(cut);
  const first = firstUuid(messages);
  return { messages, next: (page.hasMore || cut > 0) && first !== null ? first : '' };
}

/** The uuid of the newest message of msgs that has one. */
export function lastUuid(msgs: StoredMessage[]): string | null {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const u = msgs[i]?.message.uuid;
    if (typeof u === 'string' && u !== '') return u;
  }
  return null;
}

function firstUuid(msgs: StoredMessage[]): string | null {
  for (const m of msgs) {
    const u = m.message.uuid;
    if (typeof u === 'string' && u !== '') return u;
  }
  return null;
}
