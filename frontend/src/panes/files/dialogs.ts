// The Files tab's dialogs, in the app's dialog style (.app-dialog): a name
// (new file, new folder, rename or move), a folder download with its size
// counted first, and a delete that says what git can bring back.
import { errorMessage } from '../../api';
import { askConfirm } from '../../components/dialog';
import { h } from '../../dom';
import type { ArchiveFormat, FsApi, FsInfo } from './api';
import { deleteConsequences, formatSize, nameProblem } from './model';

/** What a form's check says: the value, or a problem to show instead of closing. */
type Answer<T> = { value: T } | { problem: string };

/** Shows a modal form and resolves with its answer when it closes (null: cancelled). */
function modal<T>(title: string, body: HTMLElement[], confirm: string, answer: () => Answer<T>): Promise<T | null> {
  const ok = h('button', { class: 'btn btn-primary', type: 'submit', value: 'ok' }, confirm);
  const cancel = h('button', { class: 'btn', type: 'button' }, 'Cancel');
  const error = h('p', { class: 'form-error', role: 'alert' });
  const titleId = `fdlg-${Math.random().toString(36).slice(2)}`;
  const form = h('form', { method: 'dialog' }, h('h2', { id: titleId }, title), ...body, error, h('div', { class: 'form-actions' }, cancel, ok));
  const dialog = h('dialog', { class: 'app-dialog fs-dialog', 'aria-labelledby': titleId }, form);
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(dialog);
  return new Promise((resolve) => {
    let result: T | null = null;
    form.addEventListener('submit', (ev) => {
      const a = answer();
      if ('problem' in a) {
        ev.preventDefault();
        error.textContent = a.problem;
        return;
      }
      result = a.value;
    });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve(result);
    }, { once: true });
    dialog.showModal();
    (form.querySelector<HTMLElement>('input, select') ?? ok).focus();
  });
}

/** Asks for a path relative to the session's folder; null when cancelled. */
export function askPath(title: string, label: string, value: string, confirm: string): Promise<string | null> {
  const input = h('input', { class: 'fs-name', type: 'text', name: 'path', value, autocomplete: 'off', spellcheck: 'false', 'aria-label': label });
  const p = modal<string>(title, [h('label', { class: 'fs-field' }, h('span', null, label), input)], confirm, () => {
    const v = input.value.trim();
    const problem = nameProblem(v);
    return problem === null ? { value: v } : { problem };
  });
  // Select the name part, so typing replaces it but keeps the folder.
  queueMicrotask(() => input.setSelectionRange(value.lastIndexOf('/') + 1, value.length));
  return p;
}

/**
 * Offers a folder as a zip or tar.gz: counts it first (files, bytes before
 * compression), then starts the download in the browser.
 */
export async function askArchive(fs: FsApi, path: string, label: string): Promise<void> {
  const size = h('p', { class: 'fs-size', 'aria-live': 'polite' }, 'Counting the files…');
  const select = h('select', { class: 'fs-format', name: 'format', 'aria-label': 'Format' },
    h('option', { value: 'zip' }, 'zip'), h('option', { value: 'tar.gz' }, 'tar.gz'));
  const done = modal<ArchiveFormat>(`Download ${label}`, [size, h('label', { class: 'fs-field' }, h('span', null, 'Format'), select)], 'Download',
    () => ({ value: select.value as ArchiveFormat }));
  fs.archiveSize(path).then((s) => {
    size.textContent = `${count(s.files, 'file')}${s.folders > 0 ? ` in ${count(s.folders, 'folder')}` : ''}, ${formatSize(s.bytes)} before compression` +
      (s.skipped > 0 ? ` (${s.skipped.toLocaleString()} links or special files left out)` : '') + '. The .git folder is left out.';
    size.dataset.ready = 'true';
  }, (err) => {
    size.textContent = `The folder could not be counted: ${errorMessage(err)}`;
  });
  const format = await done;
  if (format === null) return;
  const a = h('a', { href: fs.archiveUrl(path, format), download: '' });
  document.body.append(a);
  a.click();
  a.remove();
}

function count(n: number, word: string): string {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

/** Confirms a delete, saying what git can and cannot bring back. */
export async function askDelete(info: FsInfo): Promise<{ ok: boolean }> {
  const folder = info.type === 'dir';
  const a = await askConfirm({
    title: folder ? `Delete the folder “${info.path}”?` : `Delete “${info.path}”?`,
    body: [...(folder ? ['The folder is deleted with everything in it.'] : []), ...deleteConsequences(info)],
    confirm: 'Delete',
    danger: true,
  });
  return { ok: a.ok };
}
