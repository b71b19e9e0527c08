// The one owner of document.title: the app sets the base text (the open
// session), and "(?) " goes in front while some agent worker waits for the
// user and the page is hidden, so a background tab says it needs you. The
// prefix goes when the page is visible again or nothing asks any more.

const prefix = '(?) ';
const asking = new Set<string>();
/** Entries of the "needs you" inbox (components/inbox.ts): "(N) " goes first. */
let attention = 0;
let base = 'agentdesk';
let listening = false;

/** Sets the title's text (without the prefix). */
export function setBaseTitle(text: string): void {
  base = text;
  refresh();
}

/** Records whether the worker key ("sid/wid") waits for the user, and updates the title. */
export function setAsking(key: string, on: boolean): void {
  if (on) asking.add(key);
  else asking.delete(key);
  refresh();
}

/** Sets the inbox count shown as "(N) " in front of the title. */
export function setAttentionCount(n: number): void {
  attention = n;
  refresh();
}

function refresh(): void {
  if (!listening) {
    listening = true;
    document.addEventListener('visibilitychange', refresh);
  }
  const counted = attention > 0 ? `(${attention}) ${base}` : base;
  const want = document.visibilityState === 'hidden' && asking.size > 0 ? prefix + counted : counted;
  if (document.title !== want) document.title = want;
}
