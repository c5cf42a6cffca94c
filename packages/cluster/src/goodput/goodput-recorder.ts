import type { RequestSpec } from '@blis/engine';
import { GrowableFloat64 } from '@blis/engine/internal';
import type { SloDimTargets } from '@blis/workload';

/** The class BLIS's goodput files a request under: its client's, `default` when it named none. */
export function goodputClass(spec: Pick<RequestSpec, 'sloClass' | 'unnamedSloClass'>): string {
  return spec.unnamedSloClass === true || spec.sloClass === '' ? 'default' : spec.sloClass;
}

/** One gated class's arrivals and completions (µs). */
export interface ClassLog {
  injected: number;
  ids: string[];
  ttftUs: GrowableFloat64;
  itlUs: GrowableFloat64;
  e2eUs: GrowableFloat64;
}

/**
 * What goodput needs of a run, recorded only when some class is gated: per gated class, its
 * arrivals (BLIS's injectedByClass, counted before admission so drops and timeouts count against
 * it) and each completion's TTFT, mean ITL and E2E.
 */
export class GoodputRecorder {
  readonly classes = new Map<string, ClassLog>();

  constructor(readonly targets: Readonly<Record<string, SloDimTargets>>) {
    for (const cls of Object.keys(targets).sort()) this.classes.set(cls, { injected: 0, ids: [], ttftUs: new GrowableFloat64(), itlUs: new GrowableFloat64(), e2eUs: new GrowableFloat64() });
  }

  onArrival(spec: RequestSpec): void {
    const c = this.classes.get(goodputClass(spec));
    if (c !== undefined) c.injected++;
  }

  onCompleted(spec: RequestSpec, ttftUs: number, itlUs: number, e2eUs: number): void {
    const c = this.classes.get(goodputClass(spec));
    if (c === undefined) return;
    c.ids.push(spec.id);
    c.ttftUs.push(ttftUs);
    c.itlUs.push(itlUs);
    c.e2eUs.push(e2eUs);
  }
}
