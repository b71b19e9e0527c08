// Bash: the command and description are the card's title; the output goes in
// a terminal-styled block with its ANSI colours (ansi.ts), long output cut
// to the first lines with "show all" like any tool output.
import { h } from '../../../dom';
import { scrollBox } from '../../../scroll-box';
import { setCopySource } from '../copy';
import { hasAnsi, renderAnsi, stripAnsi } from './ansi';
import { num } from '../protocol';
import { registerTool } from './registry';

/** Output lines shown before "show all" (as the generic card). */
const previewLines = 40;
const previewChars = 6000;

/** A terminal-styled <pre> of text, ANSI colours rendered as classes. */
export function terminalBlock(text: string): HTMLElement {
  const pre = scrollBox(h('pre', { class: 'tool-pre tool-output tool-term' }), 'Command output');
  const fill = (t: string): void => {
    if (hasAnsi(t)) renderAnsi(pre, t);
    else pre.textContent = t;
  };
  const lines = text.split('\n');
  const wrap = h('div', { class: 'tool-output-wrap' }, pre);
  setCopySource(wrap, stripAnsi(text));
  if (lines.length <= previewLines && text.length <= previewChars) {
    fill(text);
    return wrap;
  }
  fill(lines.slice(0, previewLines).join('\n').slice(0, previewChars));
  const more = h('button', { class: 'btn btn-small tool-more', type: 'button' }, `Show all (${lines.length} lines)`);
  more.addEventListener('click', () => {
    fill(text);
    more.remove();
  });
  wrap.append(more);
  return wrap;
}

registerTool(['Bash', 'BashOutput'], {
  result: (_input, _block, text) => terminalBlock(text === '' ? '(no output)' : text),
  // Codex reports a command's exit code (Claude's Bash says it in the output).
  status: (meta) => {
    const code = num(meta, 'exitCode');
    return code === null ? null : `exit ${code}`;
  },
});
