/** True when `a` ranks strictly before `b` (bigger key first, then smaller seq). */
function before(ka: number, seqA: number, kb: number, seqB: number): boolean {
  return ka > kb || (ka === kb && seqA < seqB);
}

/**
 * Keeps the `cap` best decisions by `key`, descending, ties to the earlier decision:
 * the analyzer's "worst N" lists, bounded however long the trace.
 */
export class TopN<T extends { readonly ctx: { readonly seq: number } }> {
  /** The kept entries, best first. */
  readonly items: { key: number; d: T }[] = [];
  constructor(private readonly cap: number) {}
  /** Keeps `d` when it ranks among the best `cap` seen so far. */
  offer(key: number, d: T): void {
    const items = this.items;
    if (items.length === this.cap) {
      const last = items[items.length - 1];
      if (!before(key, d.ctx.seq, last.key, last.d.ctx.seq)) return;
      items.pop();
    }
    let i = items.length;
    while (i > 0 && before(key, d.ctx.seq, items[i - 1].key, items[i - 1].d.ctx.seq)) i--;
    items.splice(i, 0, { key, d });
  }
}
