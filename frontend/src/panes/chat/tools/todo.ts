// TodoWrite as a checklist (pending / in progress / done), and the latest
// list pinned above the composer while a turn runs and some item is not done
// (TodoPin).
import { h } from '../../../dom';
import { isObject, str } from '../protocol';
import { registerTool } from './registry';

export interface Todo {
  content: string;
  activeForm: string;
  status: 'pending' | 'in_progress' | 'completed';
}

const marks: Record<Todo['status'], string> = { pending: '○', in_progress: '◐', completed: '✓' };
const labels: Record<Todo['status'], string> = { pending: 'pending', in_progress: 'in progress', completed: 'done' };

/** The todos of a TodoWrite input; null when it has none. */
export function todosOf(input: unknown): Todo[] | null {
  if (!isObject(input) || !Array.isArray(input.todos)) return null;
  return input.todos.filter(isObject).map((t) => {
    const s = str(t, 'status');
    const status: Todo['status'] = s === 'in_progress' || s === 'completed' ? s : 'pending';
    return { content: str(t, 'content'), activeForm: str(t, 'activeForm'), status };
  });
}

/** The checklist: one row per item, its state as a mark, a class and words for screen readers. */
export function checklist(todos: Todo[]): HTMLElement {
  const done = todos.filter((t) => t.status === 'completed').length;
  const list = h('ul', { class: 'todo-list', 'aria-label': `${done} of ${todos.length} done` });
  for (const t of todos) {
    const text = t.status === 'in_progress' && t.activeForm !== '' ? t.activeForm : t.content;
    list.append(h('li', { class: 'todo-item', 'data-status': t.status },
      h('span', { class: 'todo-mark', 'aria-hidden': 'true' }, marks[t.status]),
      h('span', { class: 'todo-text' }, text),
      h('span', { class: 'tool-sr' }, ` (${labels[t.status]})`)));
  }
  return list;
}

registerTool(['TodoWrite'], {
  body: (input) => {
    const todos = todosOf(input);
    return todos === null ? null : checklist(todos);
  },
  quietResult: true,
  rawInput: false,
});

/** The latest checklist, shown above the composer while a turn runs. */
export class TodoPin {
  readonly el = h('div', { class: 'todo-pin', hidden: true, role: 'region', 'aria-label': 'Current tasks' });
  private todos: Todo[] = [];
  private running = false;
  private drawn = false;

  /** A TodoWrite was shown: its list is now the latest (drawn when the pin shows). */
  set(todos: Todo[]): void {
    this.todos = todos;
    this.drawn = false;
    this.render();
  }

  /** Whether a turn runs (the worker's activity is not idle). */
  setRunning(running: boolean): void {
    this.running = running;
    this.render();
  }

  clear(): void {
    this.set([]);
  }

  private render(): void {
    // A list whose items are all done has nothing left to follow.
    const show = this.running && this.todos.some((t) => t.status !== 'completed');
    this.el.hidden = !show;
    if (!show || this.drawn) return;
    // Drawn only when shown: a history of many lists builds none of them here.
    this.drawn = true;
    const done = this.todos.filter((t) => t.status === 'completed').length;
    this.el.replaceChildren(
      h('div', { class: 'todo-pin-head' }, `Tasks · ${done}/${this.todos.length} done`),
      checklist(this.todos));
  }
}
