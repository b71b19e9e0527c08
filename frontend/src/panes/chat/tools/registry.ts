// Tool renderers by tool name: what a card shows for a known tool beyond its
// title (a checklist, a diff, a terminal block...). A tool with no renderer
// keeps the generic card (the input as JSON, the result as text).
import type { Block } from '../protocol';

export interface ToolView {
  /** Shown under the head from the input alone; null for nothing. */
  body?(input: unknown): HTMLElement | null;
  /**
   * The result arrived: may redraw body (e.g. a diff with the file's real
   * line numbers from meta, the user line's tool_use_result).
   */
  update?(body: HTMLElement, input: unknown, meta: unknown): void;
  /** The result's view in place of the plain text; null for the plain text. */
  result?(input: unknown, block: Block, text: string, meta: unknown): HTMLElement | null;
  /** A short status from the result's meta (a command's exit code), shown in the head; null for none. */
  status?(meta: unknown): string | null;
  /** The result text says nothing the body does not: keep it collapsed. */
  quietResult?: boolean;
  /** The raw input stays available, collapsed, unless this is false. */
  rawInput?: boolean;
}

const views = new Map<string, ToolView>();

export function registerTool(names: string[], view: ToolView): void {
  for (const n of names) views.set(n, view);
}

/** The renderer of a tool, if it has one. */
export function toolView(name: string): ToolView | undefined {
  return views.get(name);
}
