import { GrowableFloat64 } from '@blis/engine/internal';

/** Interned string -> small integer, so per-request group columns stay numeric. */
export class Interner {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();
  code(name: string): number {
    let c = this.codes.get(name);
    if (c === undefined) {
      c = this.names.length;
      this.names.push(name);
      this.codes.set(name, c);
    }
    return c;
  }
}

/** Cluster-wide per-completion columns (instance metrics hold the rest). */
export class CompletionLog {
  readonly instance = new GrowableFloat64();
  readonly sloClass = new GrowableFloat64();
  readonly tenant = new GrowableFloat64();
  readonly ttftUs = new GrowableFloat64();
  readonly e2eUs = new GrowableFloat64();
  readonly sloTargetUs = new GrowableFloat64();
  readonly networkDelayUs = new GrowableFloat64();
  readonly outputTokens = new GrowableFloat64();
  readonly inputTokens = new GrowableFloat64();
  readonly arrivalUs = new GrowableFloat64();
  readonly itlUs = new GrowableFloat64();
  readonly schedulingDelayUs = new GrowableFloat64();
  readonly completionUs = new GrowableFloat64();
  readonly cacheHitBlocks = new GrowableFloat64();
  readonly preemptions = new GrowableFloat64();
  /** Adapter code per completion (-1 = base model); filled only when instances serve LoRA adapters. */
  readonly adapter = new GrowableFloat64();
  readonly adapterNames = new Interner();
  /** Request ids, kept only when per-request records were asked for. */
  readonly ids: string[] = [];
}

/** Per multi-turn session: first arrival, last completion, rounds completed. */
export interface SessionStats {
  startUs: number;
  endUs: number;
  rounds: number;
}
