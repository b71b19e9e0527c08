// The CLI's own task tools (TaskCreate, TaskUpdate) as a checklist. CLI
// 2.1.330 offers them in place of TodoWrite, so the list is never sent whole:
// it is derived here from the calls and their results, the way the CLI
// itself mirrors it for the SDK (recorded in
// internal/testkit/fakeapi/testdata/tasks.stream.jsonl). A create adds a
// pending task, named by its result ("Task #<id> created successfully", or
// tool_use_result.task.id); an update changes the status or subject of the
// task with its taskId, and "deleted" removes it. Drawn by todo.ts's
// checklist, and pinned by its TodoPin, as TodoWrite is.
import { h } from '../../../dom';
import { isObject, str, type Block } from '../protocol';
import { registerTool } from './registry';
import { checklist, type Todo } from './todo';
import './task-list.css';

const createdRe = /^Task #(\S+) created successfully/;
const labels: Record<string, string> = { pending: 'pending', in_progress: 'in progress', completed: 'done', deleted: 'deleted' };

function statusOf(s: string): Todo['status'] | null {
  return s === 'pending' || s === 'in_progress' || s === 'completed' ? s : null;
}

/** The main agent's task list, rebuilt in order from the calls shown (live or from history). */
export class TaskList {
  /** Creates whose result has not named them yet, by tool_use id. */
  private readonly pending = new Map<string, Todo>();
  /** By task id, in creation order. */
  private readonly tasks = new Map<string, Todo>();
  /** The card of this turn's last task call: where the turn's end shows the whole list. */
  lastCard: HTMLElement | null = null;

  /** A TaskCreate or TaskUpdate call; true when the list changed. */
  use(name: string, toolUseId: string, input: unknown): boolean {
    if (name === 'TaskCreate') {
      const subject = str(input, 'subject');
      if (subject === '' || toolUseId === '') return false;
      this.pending.set(toolUseId, { content: subject, activeForm: str(input, 'activeForm') || subject, status: 'pending' });
      return true;
    }
    const id = str(input, 'taskId');
    if (name !== 'TaskUpdate' || id === '') return false;
    const status = str(input, 'status');
    if (status === 'deleted') return this.tasks.delete(id);
    const old = this.tasks.get(id);
    const subject = str(input, 'subject');
    this.tasks.set(id, {
      content: subject || old?.content || `Task #${id}`,
      activeForm: str(input, 'activeForm') || old?.activeForm || subject || '',
      status: statusOf(status) ?? old?.status ?? 'pending',
    });
    return true;
  }

  /** A tool_result: a create's result names its task. True when the list changed. */
  result(block: Block, meta: unknown, text: string): boolean {
    const useId = block.tool_use_id ?? '';
    const todo = this.pending.get(useId);
    if (todo === undefined) return false;
    this.pending.delete(useId);
    if (block.is_error === true) return true;
    // The text first: meta is the message's, and a message may carry several results.
    const id = createdRe.exec(text)?.[1] ?? str(isObject(meta) ? meta.task : null, 'id');
    if (id !== '' && !this.tasks.has(id)) this.tasks.set(id, todo);
    return true;
  }

  /** The list as a TodoWrite input ({todos}), for TodoPin via todosOf. */
  input(): { todos: Todo[] } {
    return { todos: [...this.tasks.values(), ...this.pending.values()] };
  }

  /** The subject of a task, '' when unknown. */
  subject(id: string): string {
    return this.tasks.get(id)?.content ?? '';
  }

  /**
   * The turn ended: its last task call's card shows the whole list as it now
   * stands, so the transcript keeps it once the pin is gone (and rebuilds it
   * from the stored result line after a reload).
   */
  turnEnded(): void {
    const card = this.lastCard;
    this.lastCard = null;
    const todos = this.input().todos;
    if (card === null || todos.length === 0) return;
    const done = todos.filter((t) => t.status === 'completed').length;
    const summary = h('div', { class: 'task-summary' },
      h('div', { class: 'todo-pin-head' }, `Tasks · ${done}/${todos.length} done`), checklist(todos));
    const result = card.querySelector(':scope > .tool-result');
    if (result !== null) result.before(summary);
    else card.append(summary);
  }

  clear(): void {
    this.pending.clear();
    this.tasks.clear();
    this.lastCard = null;
  }
}

/** The one row a task call changes, in the checklist's style. */
function row(input: unknown, create: boolean): HTMLElement | null {
  const status = create ? 'pending' : str(input, 'status');
  const subject = str(input, 'subject');
  const id = str(input, 'taskId');
  if (status === 'deleted') return h('div', { class: 'tool-desc' }, `Task #${id} deleted`);
  const todo: Todo = {
    content: subject || (create ? '' : `Task #${id}`),
    activeForm: str(input, 'activeForm'),
    status: statusOf(status) ?? 'pending',
  };
  if (todo.content === '') return null;
  const list = checklist([todo]);
  list.classList.add('task-row');
  if (!create && status === '') list.dataset.nostatus = ''; // a subject change only
  return list;
}

registerTool(['TaskCreate'], { body: (input) => row(input, true), quietResult: true });
registerTool(['TaskUpdate'], { body: (input) => row(input, false), quietResult: true });

/** A TaskUpdate card names its task by subject once the list knows it (the input has only the id). */
export function nameTaskRow(card: HTMLElement, subject: string): void {
  const text = card.querySelector('.task-row .todo-text');
  if (text !== null && subject !== '' && text.textContent?.startsWith('Task #') === true) text.textContent = subject;
}

/** Titles for the task tools' cards (and ToolSearch's, which loads them). */
export function taskTitle(name: string, input: unknown): { text: string; code: boolean; detail: string } | null {
  if (name === 'ToolSearch') return { text: str(input, 'query'), code: true, detail: '' };
  if (name === 'TaskCreate') return { text: 'New task', code: false, detail: '' };
  if (name !== 'TaskUpdate') return null;
  const status = labels[str(input, 'status')] ?? '';
  return { text: `Task #${str(input, 'taskId')}`, code: false, detail: status === '' ? 'updated' : `now ${status}` };
}

// ToolSearch loads deferred tools (the task tools among them) before their
// first use: its result is a list of tool_reference blocks, shown as names.
registerTool(['ToolSearch'], {
  result: (_input, block) => {
    const names = Array.isArray(block.content)
      ? block.content.filter((b: unknown) => isObject(b) && b.type === 'tool_reference').map((b) => str(b, 'tool_name'))
      : [];
    return names.length === 0 ? null : h('div', { class: 'tool-desc' }, `Loaded ${names.join(', ')}`);
  },
  quietResult: true,
  rawInput: false,
});
