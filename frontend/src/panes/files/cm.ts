// CodeMirror 6, the Files tab's editor. This module is loaded with a
// dynamic import the first time a file is opened for editing, so it and
// CodeMirror are a chunk of their own outside the first load; each
// language is one more chunk, loaded for the files that need it.
//
// CodeMirror 6 is chosen because it is well kept (one maintainer team,
// releases monthly), modular (only what is used is shipped: about a third
// of Monaco's size), works on phones (contenteditable, native selection
// and IME), and virtualises long documents.
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, highlightSpecialChars, keymap, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting, type LanguageSupport } from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { tags } from '@lezer/highlight';

/** An editor shown in a pane; its state (text, undo history) outlives it. */
export interface EditorHandle {
  readonly view: EditorView;
  text(): string;
  /** The state to hand to openEditor later (switching files keeps undo). */
  state(): EditorState;
  focus(): void;
  destroy(): void;
}

export interface EditorOptions {
  parent: HTMLElement;
  path: string;
  /** The text to start with, or a state kept from before. */
  doc: string | EditorState;
  onChange(text: string): void;
  onSave(): void;
}

type Loader = () => Promise<LanguageSupport>;

const js = (ts: boolean, jsx: boolean): Loader => () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: ts, jsx }));
const loaders: Record<string, Loader> = {
  js: js(false, false), mjs: js(false, false), cjs: js(false, false), jsx: js(false, true),
  ts: js(true, false), mts: js(true, false), cts: js(true, false), tsx: js(true, true),
  py: () => import('@codemirror/lang-python').then((m) => m.python()),
  go: () => import('@codemirror/lang-go').then((m) => m.go()),
  rs: () => import('@codemirror/lang-rust').then((m) => m.rust()),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  css: () => import('@codemirror/lang-css').then((m) => m.css()),
  md: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  yml: () => import('@codemirror/lang-yaml').then((m) => m.yaml()),
  yaml: () => import('@codemirror/lang-yaml').then((m) => m.yaml()),
};

/** The language of a path by its extension, loaded; null for plain text. */
export async function languageFor(path: string): Promise<LanguageSupport | null> {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  const load = loaders[ext];
  return load === undefined ? null : load();
}

// Colours come from the page's theme variables, so the editor follows the
// light and dark themes without being rebuilt.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.modifier, tags.definitionKeyword], color: 'var(--fe-kw)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--fe-str)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--fe-num)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.className], color: 'var(--fe-type)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'var(--fe-fn)' },
  { tag: tags.heading, fontWeight: 'bold', color: 'var(--fe-kw)' },
  { tag: tags.link, textDecoration: 'underline' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--text)', backgroundColor: 'var(--bg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', fontSize: '13px', lineHeight: '20px' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-1)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'var(--fe-active)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--fe-active)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--fe-selection)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-panels': { backgroundColor: 'var(--bg-1)', color: 'var(--text)' },
  '.cm-searchMatch': { backgroundColor: 'var(--fe-match)' },
});

function extensions(o: EditorOptions, lang: LanguageSupport | null): Extension[] {
  const ext: Extension[] = [
    lineNumbers(), highlightSpecialChars(), history(), drawSelection(), indentOnInput(), bracketMatching(),
    highlightActiveLine(), highlightSelectionMatches(), syntaxHighlighting(highlight), theme, EditorView.lineWrapping,
    keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => { o.onSave(); return true; } },
      ...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) o.onChange(u.state.doc.toString());
    }),
    EditorView.contentAttributes.of({ 'aria-label': `Edit ${o.path}` }),
  ];
  if (lang !== null) ext.push(lang);
  return ext;
}

/** Builds an editor in o.parent. */
export async function openEditor(o: EditorOptions): Promise<EditorHandle> {
  const lang = await languageFor(o.path).catch(() => null);
  const state = typeof o.doc === 'string'
    ? EditorState.create({ doc: o.doc, extensions: extensions(o, lang) })
    : o.doc;
  const view = new EditorView({ state, parent: o.parent });
  return {
    view,
    text: () => view.state.doc.toString(),
    state: () => view.state,
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
