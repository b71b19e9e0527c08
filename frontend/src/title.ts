// The one owner of document.title: the app sets the base text (the open
// session), and "(?) " goes in front while some agent worker waits for the
// user and the page is hidden, so a background tab says it needs you. The
// prefix goes when the page is visible again or nothing asks any more.

const prefix = '(?) ';
const asking = new Set<string>();
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

function refresh(): void {
  if (!listening) {
    listening = true;
    document.addEventListener('visibilitychange', refresh);
  }
  const want = document.visibilityState === 'hidden' && asking.size > 0 ? prefix + base : base;
  if (document.title !== want) document.title = want;
}
