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
  readonly instance: GrowableFloat64;
  readonly sloClass: GrowableFloat64;
  readonly tenant: GrowableFloat64;
  readonly ttftUs: GrowableFloat64;
  readonly e2eUs: GrowableFloat64;
  readonly sloTargetUs: GrowableFloat64;
  readonly networkDelayUs: GrowableFloat64;
  readonly outputTokens: GrowableFloat64;
  readonly inputTokens: GrowableFloat64;
  readonly arrivalUs: GrowableFloat64;
  readonly itlUs: GrowableFloat64;
  readonly schedulingDelayUs: GrowableFloat64;
  readonly completionUs: GrowableFloat64;
  readonly cacheHitBlocks: GrowableFloat64;
  readonly preemptions: GrowableFloat64;
  /** Adapter code per completion (-1 = base model); filled only when instances serve LoRA adapters. */
  readonly adapter: GrowableFloat64;
  readonly adapterNames = new Interner();
  /** Request ids, kept only when per-request records were asked for. */
  readonly ids: string[] = [];

  constructor() {
    // One buffer for the columns' first rows (see GrowableFloat64.columns): a run builds a log.
    const c = GrowableFloat64.columns(16);
    this.instance = c[0];
    this.sloClass = c[1];
    this.tenant = c[2];
    this.ttftUs = c[3];
    this.e2eUs = c[4];
    this.sloTargetUs = c[5];
    this.networkDelayUs = c[6];
    this.outputTokens = c[7];
    this.inputTokens = c[8];
    this.arrivalUs = c[9];
    this.itlUs = c[10];
    this.schedulingDelayUs = c[11];
    this.completionUs = c[12];
    this.cacheHitBlocks = c[13];
    this.preemptions = c[14];
    this.adapter = c[15];
  }
}

/** Per multi-turn session: first arrival, last completion, rounds completed. */
export interface SessionStats {
  startUs: number;
  endUs: number;
  rounds: number;
}
