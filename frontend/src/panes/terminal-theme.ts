// xterm.js options matching the app's dark theme (styles/app.css variables).
import type { ITerminalOptions } from '@xterm/xterm';

export const terminalOptions: ITerminalOptions = {
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, monospace',
  fontSize: 13,
  lineHeight: 1.15,
  scrollback: 5000,
  cursorBlink: true,
  allowProposedApi: false,
  theme: {
    background: '#0f1218',
    foreground: '#d7dce5',
    cursor: '#8ab4ff',
    cursorAccent: '#0f1218',
    selectionBackground: '#33466b',
    black: '#1b1f27',
    red: '#f2777a',
    green: '#99cc99',
    yellow: '#ffcc66',
    blue: '#6699cc',
    magenta: '#cc99cc',
    cyan: '#66cccc',
    white: '#d7dce5',
    brightBlack: '#6b7385',
    brightRed: '#ff8f91',
    brightGreen: '#b5e8b5',
    brightYellow: '#ffe08a',
    brightBlue: '#8ab4ff',
    brightMagenta: '#e5b5e5',
    brightCyan: '#8ee8e8',
    brightWhite: '#ffffff',
  },
};
