// The CLI's records of local commands: after a model change (set_model, or
// /model) it prints a user line "<local-command-stdout>Set model to …
// </local-command-stdout>", and the session file holds more of them
// (caveats, /compact's output). They are no message of the person's: a
// model change reads as a small note ("Model: Sonnet 4.5"), like the mode
// note; other command output as a plain note; caveats not at all.
import { note } from './render';
import type { Block, CliMessage } from './protocol';

const wrapped = /^\s*<(local-command-stdout|local-command-stderr|local-command-caveat)>([\s\S]*?)<\/\1>\s*$/;
const ansi = /\x1b\[[0-9;]*[A-Za-z]/g;

/** The text of a user line that is nothing but text (a string, or text blocks). */
function plainText(m: CliMessage): string | null {
  const c = m.message?.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c) || c.length === 0) return null;
  const texts = (c as Block[]).map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : null));
  return texts.every((t) => t !== null) ? texts.join('') : null;
}

/**
 * What a local command's record shows: undefined when m is no such record
 * (render it as usual), null when it shows nothing, else its note.
 */
export function localCommand(m: CliMessage): HTMLElement | null | undefined {
  const text = plainText(m);
  const match = text === null ? null : wrapped.exec(text);
  if (match === null) return undefined;
  const [, tag, body = ''] = match;
  const out = body.replace(ansi, '').trim();
  if (tag === 'local-command-caveat' || out === '') return null;
  const model = /^Set model to\s+(.+)$/i.exec(out);
  if (model !== null) return note(`Model: ${modelLabel(model[1] ?? '')}`, 'chat-model-note');
  return note(out, tag === 'local-command-stderr' ? 'chat-command-err' : 'chat-command');
}

const families = ['opus', 'sonnet', 'haiku'];

/**
 * A model as a person names it: "claude-sonnet-4-5-20250929" → "Sonnet
 * 4.5", "claude-3-5-haiku-latest" → "Haiku 3.5", "sonnet" → "Sonnet",
 * "opus[1m]" → "Opus (1M context)"; anything else as given.
 */
export function modelLabel(id: string): string {
  let s = id.trim().replace(/\s*\((default|recommended)\)$/i, '');
  let suffix = '';
  if (/\[1m\]$/i.test(s)) {
    suffix = ' (1M context)';
    s = s.slice(0, -4);
  }
  const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
  const lower = s.toLowerCase();
  if (families.includes(lower) || lower === 'default') return cap(lower) + suffix;
  const parts = lower.replace(/-(\d{8}|latest)$/, '').split('-');
  if (parts[0] !== 'claude') return s + suffix;
  const fam = parts.findIndex((p) => families.includes(p));
  if (fam < 0) return s + suffix;
  const version = parts.slice(1).filter((p, i) => i + 1 !== fam && /^\d{1,2}$/.test(p)).join('.');
  return `${cap(parts[fam] ?? '')}${version !== '' ? ' ' + version : ''}${suffix}`;
}
