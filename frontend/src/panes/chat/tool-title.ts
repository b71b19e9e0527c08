// A readable one-line title for a tool call: what a person wants to see first
// (the command, the file, the pattern...), not the raw input object.
import { compactJson, firstLine } from './format';
import { isObject, str } from './protocol';
import { taskTitle } from './tools/task-list';

/** Tools whose title is one string field of their input. */
const titleField: Record<string, string> = {
  Bash: 'command',
  Read: 'file_path',
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
  Grep: 'pattern',
  Glob: 'pattern',
  WebSearch: 'query',
  WebFetch: 'url',
  Task: 'description',
  Agent: 'description',
};

export interface ToolTitle {
  /** The main line (a command, a path...), shown in a monospace font when code is true. */
  text: string;
  code: boolean;
  /** A secondary line (e.g. Bash's description, Grep's path), or ''. */
  detail: string;
}

export function toolTitle(name: string, input: unknown): ToolTitle {
  const field = titleField[name];
  if (field !== undefined) {
    // NotebookEdit has notebook_path; older inputs may use file_path.
    const text = str(input, field) || (name === 'NotebookEdit' ? str(input, 'file_path') : '');
    if (text !== '') return { text: firstLine(text, 300), code: name !== 'Task' && name !== 'Agent', detail: detailFor(name, input) };
  }
  if (name === 'AskUserQuestion') return { text: firstQuestion(input), code: false, detail: '' };
  if (name === 'TodoWrite' && isObject(input) && Array.isArray(input.todos)) {
    const done = input.todos.filter((t: unknown) => isObject(t) && t.status === 'completed').length;
    return { text: `${done} of ${input.todos.length} done`, code: false, detail: '' };
  }
  const task = taskTitle(name, input);
  if (task !== null) return task;
  const compact = isObject(input) && Object.keys(input).length === 0 ? '' : compactJson(input, 160);
  return { text: compact, code: true, detail: '' };
}

function detailFor(name: string, input: unknown): string {
  switch (name) {
    case 'Bash':
      return str(input, 'description');
    case 'Grep': {
      const where = str(input, 'path') || str(input, 'glob');
      return where === '' ? '' : `in ${where}`;
    }
    case 'Glob':
      return str(input, 'path') === '' ? '' : `in ${str(input, 'path')}`;
    case 'Task':
    case 'Agent':
      return str(input, 'subagent_type');
    default:
      return '';
  }
}

function firstQuestion(input: unknown): string {
  if (!isObject(input) || !Array.isArray(input.questions)) return '';
  const q: unknown = input.questions[0];
  return str(q, 'question');
}
