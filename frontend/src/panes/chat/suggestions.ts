// "Always allow" buttons from a permission request's permission_suggestions
// (claude-cli.md §6). Each addRules suggestion gives "in this session" (the
// same rule with destination session) and, when the CLI suggested a settings
// file, the suggestion as it came ("in this project"...). A click allows the
// tool with the rule as updatedPermissions.
import { h } from '../../dom';
import { isObject, str } from './protocol';

/** Where a destination keeps the rule, as the button says it. */
const where: Record<string, string> = {
  session: 'in this session',
  localSettings: 'in this project (just you)',
  projectSettings: 'in this project (shared)',
  userSettings: 'in all your projects',
};

interface RuleSuggestion {
  rules: { toolName: string; ruleContent?: string }[];
  raw: Record<string, unknown>;
}

/** The rule as the CLI writes it, e.g. Bash(npm test). */
export function ruleSpec(r: { toolName: string; ruleContent?: string }): string {
  return r.ruleContent !== undefined && r.ruleContent !== '' ? `${r.toolName}(${r.ruleContent})` : r.toolName;
}

/** A rule's content without the tool, for the button text (`npm test`). */
function shortSpec(r: { toolName: string; ruleContent?: string }): string {
  return r.ruleContent !== undefined && r.ruleContent !== '' ? r.ruleContent : `every ${r.toolName} call`;
}

function parse(suggestions: unknown): RuleSuggestion[] {
  if (!Array.isArray(suggestions)) return [];
  const out: RuleSuggestion[] = [];
  for (const s of suggestions) {
    if (!isObject(s) || s.type !== 'addRules' || s.behavior !== 'allow' || !Array.isArray(s.rules)) continue;
    const rules = s.rules.filter(isObject).map((r) => ({ toolName: str(r, 'toolName'), ruleContent: str(r, 'ruleContent') }))
      .filter((r) => r.toolName !== '');
    if (rules.length > 0) out.push({ rules, raw: s });
  }
  return out;
}

/** The buttons for req's suggestions; allow(updates) answers with them. */
export function suggestionButtons(suggestions: unknown, allow: (updates: unknown[]) => void): HTMLButtonElement[] {
  const out: HTMLButtonElement[] = [];
  for (const s of parse(suggestions)) {
    const dests = ['session'];
    const own = str(s.raw, 'destination');
    if (own !== '' && own !== 'session' && where[own] !== undefined) dests.push(own);
    for (const d of dests) {
      const label = s.rules.map(shortSpec).join(', ');
      const b = h('button', { class: 'btn perm-always', type: 'button', 'data-destination': d, title: s.rules.map(ruleSpec).join(', ') },
        'Always allow ', h('code', null, label), ` ${where[d]}`);
      b.addEventListener('click', () => allow([{ ...s.raw, destination: d }]));
      out.push(b);
    }
  }
  return out;
}
