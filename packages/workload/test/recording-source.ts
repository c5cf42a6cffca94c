import type { RequestOutcome, RequestSource, RequestSpec } from '@blis/engine';

/** Passes a source through, recording what it emits and when and how each request leaves. */
export class Recording implements RequestSource {
  readonly emitted: RequestSpec[] = [];
  readonly done = new Map<number, { at: number; outcome: RequestOutcome }>();
  constructor(private readonly inner: RequestSource) {}
  peekArrivalUs(): number {
    return this.inner.peekArrivalUs();
  }
  next(): RequestSpec | undefined {
    const r = this.inner.next();
    if (r !== undefined) this.emitted.push(r);
    return r;
  }
  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    this.done.set(spec.index, { at: timeUs, outcome });
    this.inner.onRequestDone?.(spec, timeUs, outcome);
  }
}
