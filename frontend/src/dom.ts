// Tiny DOM helpers: element creation and keyed list reconciliation that keeps
// existing nodes (and so focus and in-progress edits) in place.

type Child = Node | string | null | undefined | false;
type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Record<string, AttrValue | ((ev: never) => void)>;

/**
 * Creates an element. Attributes: `class`, any attribute (true = present,
 * false/null/undefined = absent), and `onX` functions as event listeners.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v as EventListener);
    } else if (v === true) {
      el.setAttribute(k, '');
    } else if (v !== false && v !== null && v !== undefined) {
      el.setAttribute(k, String(v));
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

/**
 * Makes parent's children match items, in order, reusing the element cached
 * under each key: create() for new keys, update() for every item, removal for
 * keys that are gone. Nodes are moved only when out of place.
 */
export function reconcile<T, E extends HTMLElement>(
  parent: HTMLElement,
  items: readonly T[],
  key: (item: T) => string,
  cache: Map<string, E>,
  create: (item: T) => E,
  update: (el: E, item: T) => void,
): void {
  const keep = new Set(items.map(key));
  for (const [k, el] of cache) {
    if (!keep.has(k)) {
      el.remove();
      cache.delete(k);
    }
  }
  let at: ChildNode | null = parent.firstChild;
  for (const item of items) {
    const k = key(item);
    let el = cache.get(k);
    if (el === undefined) {
      el = create(item);
      cache.set(k, el);
    }
    update(el, item);
    if (el === at) at = el.nextSibling;
    else parent.insertBefore(el, at);
  }
}

/** Sets text only when it differs (avoids needless layout and screen-reader chatter). */
export function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** Last path element of a directory, for short labels. */
export function baseName(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
