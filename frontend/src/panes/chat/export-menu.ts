// "Export" in the chat bar: the whole conversation as a markdown transcript
// or as its raw stored lines (GET …/export?format=md|jsonl), downloaded by
// the browser with the page's own sign-in cookie.
import { MenuButton } from '../../components/menu-button';
import { h } from '../../dom';

const formats: [string, string][] = [['md', 'Transcript (Markdown)'], ['jsonl', 'Raw messages (JSONL)']];

/** The export menu of one chat worker; workerPath is /api/sessions/:sid/workers/:wid. */
export function exportMenu(workerPath: string): HTMLElement {
  // On a phone the bar keeps the words of the model and the mode: Export is "⋯".
  const button = h('button', { class: 'btn btn-small chat-export', type: 'button', title: 'Download this conversation', 'aria-label': 'Export' },
    h('span', { class: 'chip-full' }, 'Export'), h('span', { class: 'chip-short', 'aria-hidden': 'true' }, '⋯'));
  const menu = new MenuButton(button, 'Export the conversation');
  menu.setItems(formats.map(([format, label]) => h('button', {
    class: 'menu-item', type: 'button',
    onClick: () => {
      const a = h('a', { href: `${workerPath}/export?format=${format}`, download: '' });
      a.click();
      menu.close(true);
    },
  }, label)));
  return menu.el;
}
