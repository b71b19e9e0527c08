// Tracks the absolute output offset of a PTY worker stream so that a socket
// resumed with ?offset=<next> neither loses nor doubles bytes (API.md: binary
// frames start with an 8-byte big-endian absolute offset).

/** Reads a binary frame: its absolute start offset and its payload. Null if malformed. */
export function parseOutputFrame(frame: ArrayBuffer): { start: number; bytes: Uint8Array } | null {
  if (frame.byteLength < 8) return null;
  const start = Number(new DataView(frame).getBigUint64(0, false));
  return { start, bytes: new Uint8Array(frame, 8) };
}

export class OutputCursor {
  /** The next absolute offset expected; null before anything was seen. */
  next: number | null = null;

  /**
   * Returns the bytes of a frame that were not seen yet (possibly empty), and
   * advances next. Bytes below next are dropped (a replay overlapping what we
   * have); a frame starting beyond next is a gap and is kept whole.
   */
  accept(start: number, bytes: Uint8Array): Uint8Array {
    const end = start + bytes.length;
    if (this.next !== null && end <= this.next) return bytes.subarray(0, 0);
    const skip = this.next !== null && start < this.next ? this.next - start : 0;
    this.next = end;
    return skip > 0 ? bytes.subarray(skip) : bytes;
  }

  /** The server dropped everything below offset; output continues from there. */
  truncated(offset: number): void {
    if (this.next === null || this.next < offset) this.next = offset;
  }

  /**
   * The replay ended at offset. Returns false when that is behind what we have
   * already seen, i.e. the server's log is not the one we followed (it restarted).
   */
  historyEnd(offset: number): boolean {
    if (this.next === null) {
      this.next = offset;
      return true;
    }
    return offset >= this.next;
  }

  /** Query string to resume from: empty before anything was seen. */
  query(): string {
    return this.next === null ? '' : `?offset=${this.next}`;
  }

  reset(): void {
    this.next = null;
  }
}
