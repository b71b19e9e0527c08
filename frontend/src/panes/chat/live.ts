// Streaming text (stream_event lines) shown as plain text until the complete
// assistant line for the block arrives and takes its place.
//
// The CLI sends one assistant line per content block, when the block completes,
// before that block's content_block_stop; so the n-th assistant line of an API
// message replaces the oldest block still streaming, and blocks with an index
// below the count of lines already stored are complete (a reconnecting socket
// replays the running message's events: those must not show twice).
import { h } from '../../dom';
import { scrollBox } from '../../scroll-box';
import { str, type CliMessage } from './protocol';

interface LiveBlock {
  el: HTMLElement;
  text: Text;
}

interface LiveMessage {
  /** Live blocks by content index, oldest first. */
  blocks: Map<number, LiveBlock>;
  /** Assistant lines of this message already stored and shown. */
  final: number;
}

/** Where a new live element goes: the log, or a sub-agent's tool card. */
export type Place = (el: HTMLElement, parentToolUseId: string | null) => void;

export class LiveStream {
  private readonly msgs = new Map<string, LiveMessage>();
  private current = '';

  constructor(private readonly place: Place) {}

  /** Applies one stream_event line. */
  onEvent(m: CliMessage): void {
    const ev = m.event;
    if (ev === undefined) return;
    let id = str(m, 'api_message_id');
    if (ev.type === 'message_start') {
      id = id || (ev.message?.id ?? '');
      this.current = id;
    }
    id = id || this.current;
    if (id === '') return;
    const idx = typeof ev.index === 'number' ? ev.index : 0;
    if (ev.type === 'content_block_start') {
      const st = this.message(id);
      if (idx < st.final || st.blocks.has(idx)) return;
      const b = liveBlock(ev.content_block?.type ?? '', ev.content_block?.name ?? '');
      if (b === null) return;
      st.blocks.set(idx, b);
      this.place(b.el, m.parent_tool_use_id ?? null);
    } else if (ev.type === 'content_block_delta') {
      const b = this.msgs.get(id)?.blocks.get(idx);
      const d = ev.delta;
      const add = d?.text ?? d?.thinking ?? d?.partial_json ?? '';
      if (b !== undefined && add !== '') b.text.appendData(add);
    }
  }

  /**
   * An assistant line of API message id arrived: counts it and returns the live
   * element it replaces (already out of the live set), or null.
   */
  take(id: string): HTMLElement | null {
    if (id === '') return null;
    const st = this.message(id);
    st.final++;
    let first: number | null = null;
    for (const k of st.blocks.keys()) if (first === null || k < first) first = k;
    if (first === null) return null;
    const b = st.blocks.get(first);
    st.blocks.delete(first);
    return b?.el ?? null;
  }

  /** Removes the live elements but keeps the counts (the socket reconnects and replays the turn). */
  dropLive(): void {
    for (const st of this.msgs.values()) {
      for (const b of st.blocks.values()) b.el.remove();
      st.blocks.clear();
    }
  }

  /** Forgets everything (the turn ended, or the history is reset). */
  clear(): void {
    this.dropLive();
    this.msgs.clear();
    this.current = '';
  }

  private message(id: string): LiveMessage {
    let st = this.msgs.get(id);
    if (st === undefined) {
      st = { blocks: new Map(), final: 0 };
      this.msgs.set(id, st);
    }
    return st;
  }
}

function liveBlock(type: string, toolName: string): LiveBlock | null {
  const text = document.createTextNode('');
  switch (type) {
    case 'text':
      return { el: h('div', { class: 'chat-msg chat-text plain live' }, text), text };
    case 'thinking':
      return {
        el: h('details', { class: 'chat-msg chat-thinking live', open: true },
          h('summary', null, 'Thinking…'), h('div', { class: 'thinking-text' }, text)),
        text,
      };
    case 'tool_use':
      return {
        el: h('div', { class: 'chat-msg chat-tool live', 'data-state': 'pending' },
          h('div', { class: 'tool-head' }, h('span', { class: 'tool-name' }, toolName || 'tool'),
            h('span', { class: 'tool-state' }, 'preparing…')),
          scrollBox(h('pre', { class: 'tool-pre' }, text), 'Tool input')),
        text,
      };
    default:
      return null;
  }
}
