/**
 * Storage of the transfer station's jobs in flight: growable typed-array FIFOs of job slots
 * and the log of completions waiting to be drained.
 */

/** Copies `from` into the larger `to` and returns `to`. */
export function grown<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** A growable FIFO ring of job slots. */
export class SlotFifo {
  private buf = new Int32Array(16);
  private head = 0;
  length = 0;

  push(s: number): void {
    if (this.length === this.buf.length) {
      const b = new Int32Array(this.buf.length * 2);
      for (let i = 0; i < this.length; i++) b[i] = this.buf[(this.head + i) & (this.buf.length - 1)];
      this.buf = b;
      this.head = 0;
    }
    this.buf[(this.head + this.length++) & (this.buf.length - 1)] = s;
  }

  shift(): number {
    const s = this.buf[this.head];
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.length--;
    return s;
  }
}

/** Completions waiting to be drained: parallel growable columns. */
export class CompletionLog {
  id = new Float64Array(16);
  tier = new Int32Array(16);
  dir = new Uint8Array(16);
  tag = new Float64Array(16);
  at = new Float64Array(16);
  count = 0;

  push(id: number, tier: number, dir: number, tag: number, at: number): void {
    if (this.count === this.id.length) {
      const n = this.count * 2;
      this.id = grown(this.id, new Float64Array(n));
      this.tier = grown(this.tier, new Int32Array(n));
      this.dir = grown(this.dir, new Uint8Array(n));
      this.tag = grown(this.tag, new Float64Array(n));
      this.at = grown(this.at, new Float64Array(n));
    }
    const i = this.count++;
    this.id[i] = id;
    this.tier[i] = tier;
    this.dir[i] = dir;
    this.tag[i] = tag;
    this.at[i] = at;
  }
}
