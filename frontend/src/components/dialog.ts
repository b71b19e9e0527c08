// The app's own confirmation dialog, instead of window.confirm: a modal
// <dialog> with a title, a few lines, an optional checkbox, and two
// buttons. Escape or Cancel answer no. For a destructive action (danger)
// the focus starts on Cancel, so Enter alone never destroys anything.
import { h } from '../dom';

export interface ConfirmOptions {
  title: string;
  /** Paragraphs (strings or nodes). */
  body: (string | Node)[];
  confirm: string;
  cancel?: string;
  danger?: boolean;
  /** A checkbox shown under the body; its state comes back in the answer. */
  check?: { label: string; checked?: boolean; note?: string | Node };
}

export interface ConfirmAnswer {
  ok: boolean;
  checked: boolean;
}

/** Shows the dialog and resolves when it is answered. */
export function askConfirm(o: ConfirmOptions): Promise<ConfirmAnswer> {
  const ok = h('button', { class: `btn ${o.danger ? 'btn-danger' : 'btn-primary'}`, type: 'submit', value: 'ok' }, o.confirm);
  const cancel = h('button', { class: 'btn', type: 'submit', value: 'cancel', formnovalidate: true }, o.cancel ?? 'Cancel');
  const box = o.check === undefined ? null : h('input', { type: 'checkbox', checked: o.check.checked === true });
  const titleId = `dlg-${Math.random().toString(36).slice(2)}`;
  const dialog = h('dialog', { class: 'app-dialog', 'aria-labelledby': titleId },
    h('form', { method: 'dialog' },
      h('h2', { id: titleId }, o.title),
      ...o.body.map((b) => (typeof b === 'string' ? h('p', null, b) : b)),
      box === null || o.check === undefined ? null : h('label', { class: 'check' }, box, h('span', null, o.check.label)),
      o.check?.note ?? null,
      h('div', { class: 'form-actions' }, cancel, ok)));
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const answer = { ok: dialog.returnValue === 'ok', checked: box?.checked === true };
      dialog.remove();
      if (opener?.isConnected) opener.focus();
      resolve(answer);
    }, { once: true });
    dialog.showModal();
    (o.danger ? cancel : ok).focus();
  });
}
