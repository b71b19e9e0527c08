// Where the composer's completions come from: the worker's slash commands
// (fetched once per worker; the first call may start its CLI, about a
// second) and the session's files (one request per query, the server
// caches the listing). Also what the caret is completing, as pure functions.
import type { Api } from '../../api';

export interface SlashCommand {
  name: string;
  description: string;
  argumentHint: string;
}

export interface CompletionSource {
  commands(): Promise<SlashCommand[]>;
  files(query: string): Promise<string[]>;
}

/** The completion the caret is in: a command at the message's start, or an @path. */
export interface Trigger {
  kind: 'command' | 'file';
  /** Where the replaced text starts (the `/` or the `@`). */
  start: number;
  query: string;
}

/**
 * trigger reads the text before the caret: `/word` as the whole message so
 * far opens commands; `@word` at the start or after white space opens files.
 */
export function trigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const cmd = /^\/(\S*)$/.exec(before);
  if (cmd !== null) return { kind: 'command', start: 0, query: cmd[1] ?? '' };
  const at = /(^|\s)@(\S*)$/.exec(before);
  if (at !== null) return { kind: 'file', start: at.index + (at[1] ?? '').length, query: at[2] ?? '' };
  return null;
}

/** The source of one worker of one session. */
export function apiSource(api: Api, sid: string, wid: string): CompletionSource {
  let cmds: Promise<SlashCommand[]> | null = null;
  const enc = encodeURIComponent;
  return {
    commands() {
      // A failed fetch is not kept: the next `/` asks again.
      cmds ??= api.request<{ commands: SlashCommand[] }>('GET', `/api/sessions/${enc(sid)}/workers/${enc(wid)}/commands`)
        .then((r) => r.commands ?? [], (err: unknown) => { cmds = null; throw err; });
      return cmds;
    },
    async files(query) {
      const r = await api.request<{ files: string[] }>('GET', `/api/sessions/${enc(sid)}/files?q=${enc(query)}&limit=50`);
      return r.files ?? [];
    },
  };
}
