// "(?) " in front of the page title while some chat waits for an answer and the
// page is hidden, so a background tab says it needs you. Shared by every chat
// pane of the page; the prefix goes when the page is visible or nothing asks.

const prefix = '(?) ';
const asking = new Set<string>();
let listening = false;

/** Records whether the worker key waits for the user, and updates the title. */
export function setAsking(key: string, on: boolean): void {
  if (on) asking.add(key);
  else asking.delete(key);
  if (!listening) {
    listening = true;
    document.addEventListener('visibilitychange', refresh);
  }
  refresh();
}

function refresh(): void {
  const want = document.visibilityState === 'hidden' && asking.size > 0;
  const has = document.title.startsWith(prefix);
  if (want && !has) document.title = prefix + document.title;
  else if (!want && has) document.title = document.title.slice(prefix.length);
}
