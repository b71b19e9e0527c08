// The lazily loaded half of code-block highlighting (see highlight.ts): a
// queue of blocks near the view, coloured one per task so that a chat full
// of code never holds the page, with the
// lezer parsers of the @codemirror/lang-* packages the Files tab's editor
// already ships, each imported when a block of its language first needs it,
// and @lezer/highlight's highlightCode writing the hl- token classes of
// /highlight.css. A chunk of its own, so the first bundle stays as it was.
import type { Language } from '@codemirror/language';
import { highlightCode, tagHighlighter, tags as t } from '@lezer/highlight';

type Loader = () => Promise<Language>;

const js: Loader = () => import('@codemirror/lang-javascript').then((m) => m.javascriptLanguage);
const ts: Loader = () => import('@codemirror/lang-javascript').then((m) => m.typescriptLanguage);
const jsx: Loader = () => import('@codemirror/lang-javascript').then((m) => m.jsxLanguage);
const tsx: Loader = () => import('@codemirror/lang-javascript').then((m) => m.tsxLanguage);
const py: Loader = () => import('@codemirror/lang-python').then((m) => m.pythonLanguage);
const md: Loader = () => import('@codemirror/lang-markdown').then((m) => m.markdownLanguage);
const yml: Loader = () => import('@codemirror/lang-yaml').then((m) => m.yamlLanguage);

/** Fence names (lower case) to their language; others stay plain. */
const loaders: Record<string, Loader> = {
  js, javascript: js, mjs: js, cjs: js, node: js, jsx,
  ts, typescript: ts, tsx,
  py, python: py, python3: py,
  go: () => import('@codemirror/lang-go').then((m) => m.goLanguage),
  golang: () => import('@codemirror/lang-go').then((m) => m.goLanguage),
  rs: () => import('@codemirror/lang-rust').then((m) => m.rustLanguage),
  rust: () => import('@codemirror/lang-rust').then((m) => m.rustLanguage),
  json: () => import('@codemirror/lang-json').then((m) => m.jsonLanguage),
  jsonc: () => import('@codemirror/lang-json').then((m) => m.jsonLanguage),
  css: () => import('@codemirror/lang-css').then((m) => m.cssLanguage),
  md, markdown: md,
  yml, yaml: yml,
};

const loaded = new Map<string, Promise<Language>>();

/** The language of a fence name, loaded once; null when there is no parser for it. */
export function languageOf(name: string): Promise<Language> | null {
  const key = name.toLowerCase();
  const load = loaders[key];
  if (load === undefined) return null;
  let p = loaded.get(key);
  if (p === undefined) {
    p = load();
    loaded.set(key, p);
  }
  return p;
}

/** Tags to the hl- classes of /highlight.css (the most specific tag wins). */
const highlighter = tagHighlighter([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword, t.modifier, t.self], class: 'hl-kw' },
  { tag: [t.string, t.character, t.docString, t.attributeValue], class: 'hl-str' },
  { tag: [t.regexp, t.escape, t.special(t.string)], class: 'hl-str2' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], class: 'hl-com' },
  { tag: [t.number, t.integer, t.float], class: 'hl-num' },
  { tag: [t.bool, t.atom, t.null, t.constant(t.name), t.standard(t.name)], class: 'hl-con' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.function(t.definition(t.variableName))], class: 'hl-fn' },
  { tag: [t.typeName, t.className, t.namespace], class: 'hl-type' },
  { tag: [t.propertyName, t.definition(t.propertyName)], class: 'hl-prop' },
  { tag: t.tagName, class: 'hl-tag' },
  { tag: t.attributeName, class: 'hl-attr' },
  { tag: [t.meta, t.annotation, t.processingInstruction, t.macroName], class: 'hl-meta' },
  { tag: t.heading, class: 'hl-head' },
  { tag: [t.link, t.url], class: 'hl-link' },
  { tag: t.emphasis, class: 'hl-em' },
  { tag: t.strong, class: 'hl-strong' },
  { tag: t.inserted, class: 'hl-ins' },
  { tag: t.deleted, class: 'hl-del' },
  { tag: t.invalid, class: 'hl-inv' },
]);

/**
 * Only this much of a block is parsed and coloured; the rest stays plain
 * text after it. Parsing is linear but runs in one go: 20 000 characters
 * take a few milliseconds, a megabyte would hold the page for a frame or more.
 */
export const maxChars = 20_000;

/** Replaces code's text with the same text in token spans. */
export function colour(code: HTMLElement, lang: Language): void {
  const text = code.textContent ?? '';
  let end = text.length;
  if (end > maxChars) {
    end = text.lastIndexOf('\n', maxChars) + 1;
    if (end <= 0) end = maxChars;
  }
  const head = text.slice(0, end);
  const out = document.createDocumentFragment();
  highlightCode(head, lang.parser.parse(head), highlighter,
    (s, classes) => {
      if (classes === '') out.append(s);
      else {
        const span = document.createElement('span');
        span.className = classes;
        span.textContent = s;
        out.append(span);
      }
    },
    () => out.append('\n'));
  if (end < text.length) out.append(text.slice(end));
  code.replaceChildren(out);
}

/** The fence's language: the class language-X of the code element. */
function fenceOf(code: HTMLElement): string {
  for (const c of code.classList) if (c.startsWith('language-')) return c.slice('language-'.length);
  return '';
}

/** A macrotask: lets input and painting run between two blocks. */
const yieldToPage = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

const pending: HTMLElement[] = [];
let running = false;

/**
 * Queues code elements to colour; each gets data-hl="done" when coloured,
 * "plain" when its language has no parser (or failed to load).
 */
export function enqueue(codes: HTMLElement[]): void {
  pending.push(...codes);
  void drain();
}

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  for (let code = pending.shift(); code !== undefined; code = pending.shift()) {
    if (!code.isConnected || code.hasAttribute('data-hl')) continue;
    const lang = languageOf(fenceOf(code));
    try {
      if (lang === null) throw new Error('no parser');
      colour(code, await lang);
      code.setAttribute('data-hl', 'done');
    } catch {
      code.setAttribute('data-hl', 'plain'); // stays plain text, readable
    }
    await yieldToPage();
  }
  running = false;
}
