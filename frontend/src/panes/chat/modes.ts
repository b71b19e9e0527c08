// The permission modes of a chat's agent, in the order a menu lists them
// and Alt+M cycles them: Claude's modes, or Codex's approval policies
// (docs/api-extensions.md, "Codex chats"). The server refuses a mode of
// another agent, so a chat offers only its own.

export interface ModeSet {
  /** The mode names a person reads, by value, in menu order. */
  readonly names: Readonly<Record<string, string>>;
  /** A word or two for the phone's chip (a part of the full name: the chip's text stays in its accessible name). */
  readonly short: Readonly<Record<string, string>>;
  /** What Alt+M cycles through, first to last. */
  readonly cycle: readonly string[];
  /** The mode in force when neither the person nor the agent said one. */
  readonly fallback: string;
  /** Whose own settings apply when nothing was chosen. */
  readonly owner: string;
}

const claude: ModeSet = {
  names: { default: 'Ask before edits', acceptEdits: 'Accept edits', plan: 'Plan', bypassPermissions: 'Bypass permissions' },
  short: { default: 'Ask', acceptEdits: 'Accept edits', plan: 'Plan', bypassPermissions: 'Bypass' },
  cycle: ['default', 'acceptEdits', 'plan'],
  fallback: 'default',
  owner: 'Claude',
};

const codex: ModeSet = {
  names: { untrusted: 'Ask for commands', 'on-request': 'Ask when needed', never: 'Never ask' },
  short: { untrusted: 'Ask', 'on-request': 'When needed', never: 'Never ask' },
  cycle: ['on-request', 'untrusted', 'never'],
  fallback: 'on-request',
  owner: 'Codex',
};

/** The modes of a chat whose worker has agent (absent: Claude). */
export function modesOf(agent?: string | null): ModeSet {
  return agent === 'codex' ? codex : claude;
}

/** A mode's name for a person, whichever agent has it. */
export function modeName(mode: string): string {
  return claude.names[mode] ?? codex.names[mode] ?? mode;
}
