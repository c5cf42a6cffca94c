/** The ordered block ids one request holds, with the number of tokens they store. */
export class OwnerBlocks {
  ids: Int32Array;
  length = 0;
  /** Tokens stored across all of this owner's blocks. */
  tokens = 0;

  constructor(capacity = 8) {
    this.ids = new Int32Array(capacity);
  }

  push(id: number): void {
    if (this.length === this.ids.length) {
      const next = new Int32Array(this.ids.length * 2);
      next.set(this.ids);
      this.ids = next;
    }
    this.ids[this.length++] = id;
  }

  last(): number {
    return this.length === 0 ? -1 : this.ids[this.length - 1];
  }
}
