// ANSI colours in tool output, rendered safely: the text is cut into runs at
// SGR sequences (ESC [ … m) and each run becomes a <span> whose classes say
// its colour and weight; the text itself only ever goes in as textContent.
// Every other escape sequence (cursor moves, OSC titles) is dropped.
import { h } from '../../../dom';

export interface Run {
  text: string;
  cls: string;
}

interface Style {
  fg: number | null; // 0–15
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

const plain = (): Style => ({ fg: null, bg: null, bold: false, dim: false, italic: false, underline: false });

// CSI sequences (SGR or not), OSC strings ended by BEL or ST, and lone escapes.
// eslint-disable-next-line no-control-regex
const escRe = /\x1b\[([0-9;:?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;

/** True when text holds an escape character (most output has none: no parsing then). */
export function hasAnsi(text: string): boolean {
  return text.includes('\x1b');
}

/** Cuts text into styled runs. */
export function parseAnsi(text: string): Run[] {
  const runs: Run[] = [];
  let style = plain();
  let last = 0;
  escRe.lastIndex = 0;
  for (let m = escRe.exec(text); m !== null; m = escRe.exec(text)) {
    if (m.index > last) runs.push({ text: text.slice(last, m.index), cls: classOf(style) });
    last = m.index + m[0].length;
    if (m[2] === 'm') style = applySgr(style, m[1] ?? '');
  }
  if (last < text.length) runs.push({ text: text.slice(last), cls: classOf(style) });
  return runs;
}

function applySgr(s: Style, params: string): Style {
  const next = { ...s };
  const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => Number(p) || 0);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] ?? 0;
    if (c === 0) Object.assign(next, plain());
    else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 3) next.italic = true;
    else if (c === 4) next.underline = true;
    else if (c === 22) next.bold = next.dim = false;
    else if (c === 23) next.italic = false;
    else if (c === 24) next.underline = false;
    else if (c >= 30 && c <= 37) next.fg = c - 30;
    else if (c >= 90 && c <= 97) next.fg = c - 90 + 8;
    else if (c === 39) next.fg = null;
    else if (c >= 40 && c <= 47) next.bg = c - 40;
    else if (c >= 100 && c <= 107) next.bg = c - 100 + 8;
    else if (c === 49) next.bg = null;
    else if (c === 38 || c === 48) {
      // 256 colours: the first 16 map to the palette; the rest, and RGB, are skipped.
      const mode = codes[i + 1];
      const n = codes[i + 2] ?? 0;
      if (mode === 5 && n < 16) {
        if (c === 38) next.fg = n;
        else next.bg = n;
      }
      i += mode === 5 ? 2 : mode === 2 ? 4 : 1;
    }
  }
  return next;
}

function classOf(s: Style): string {
  const c: string[] = [];
  if (s.fg !== null) c.push(`ansi-fg${s.fg}`);
  if (s.bg !== null) c.push(`ansi-bg${s.bg}`);
  if (s.bold) c.push('ansi-bold');
  if (s.dim) c.push('ansi-dim');
  if (s.italic) c.push('ansi-italic');
  if (s.underline) c.push('ansi-underline');
  return c.join(' ');
}

/** Fills el with text's runs (spans for styled runs, text nodes for plain ones). */
export function renderAnsi(el: HTMLElement, text: string): void {
  el.replaceChildren(...parseAnsi(text).map((r) => (r.cls === '' ? r.text : h('span', { class: r.cls }, r.text))));
}

/** The text without any escape sequence (for copying). */
export function stripAnsi(text: string): string {
  return text.replace(escRe, '');
}
