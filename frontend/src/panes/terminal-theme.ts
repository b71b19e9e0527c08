// xterm.js options and palettes matching the app's themes (styles/theme.css).
import type { ITerminalOptions, ITheme } from '@xterm/xterm';
import type { Theme } from '../theme';

const dark: ITheme = {
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
};

// GitHub's light terminal colours: every colour readable on the light background.
const light: ITheme = {
  background: '#fbfbfc',
  foreground: '#1f2328',
  cursor: '#0860ca',
  cursorAccent: '#fbfbfc',
  selectionBackground: '#b6d4fe',
  black: '#24292f',
  red: '#cf222e',
  green: '#116329',
  yellow: '#7d4e00',
  blue: '#0969da',
  magenta: '#8250df',
  cyan: '#1b7c83',
  white: '#6e7781',
  brightBlack: '#57606a',
  brightRed: '#a40e26',
  brightGreen: '#1a7f37',
  brightYellow: '#633c01',
  brightBlue: '#218bff',
  brightMagenta: '#a475f9',
  brightCyan: '#3192aa',
  brightWhite: '#8c959f',
};

export function terminalTheme(t: Theme): ITheme {
  return t === 'light' ? light : dark;
}

export function terminalOptions(t: Theme): ITerminalOptions {
  return {
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, monospace',
    fontSize: 13,
    lineHeight: 1.15,
    scrollback: 5000,
    cursorBlink: true,
    allowProposedApi: false,
    theme: terminalTheme(t),
  };
}
