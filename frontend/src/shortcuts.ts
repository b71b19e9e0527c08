// Global keyboard shortcuts. Listened to in the capture phase so they work even
// while a terminal has focus (xterm.js would otherwise turn Alt+key into ESC key).

export interface ShortcutHandlers {
  newSession(): void;
  newTerminal(): void;
  selectTab(index: number): void;
  focusSessions(): void;
  focusPane(): void;
  moveSession(delta: number): void;
  /** Moves the conversation between chat and Claude's terminal UI. */
  switchAgent(): void;
  /** The chat's next permission mode (in a web page Shift+Tab moves the focus, so not that). */
  cycleMode(): void;
}

/** Installs the shortcuts; returns a function that removes them. */
export function installShortcuts(hs: ShortcutHandlers): () => void {
  const onKey = (ev: KeyboardEvent): void => {
    if (!ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const action = actionFor(ev.code, hs);
    if (action === null) return;
    ev.preventDefault();
    ev.stopPropagation();
    action();
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}

function actionFor(code: string, hs: ShortcutHandlers): (() => void) | null {
  const digit = /^Digit([1-9])$/.exec(code);
  if (digit !== null) return () => hs.selectTab(Number(digit[1]) - 1);
  switch (code) {
    case 'KeyN':
      return hs.newSession;
    case 'KeyT':
      return hs.newTerminal;
    case 'KeyS':
      return hs.focusSessions;
    case 'KeyP':
      return hs.focusPane;
    case 'KeyJ':
      return hs.switchAgent;
    case 'KeyM':
      return hs.cycleMode;
    case 'ArrowUp':
      return () => hs.moveSession(-1);
    case 'ArrowDown':
      return () => hs.moveSession(1);
    default:
      return null;
  }
}
