import type { GoodputSloTargetsSpec } from '../goodput/goodput-targets.js';
import { MAX_CLOCK_US, type RequestSource, type RequestSpec } from '@blis/engine';
import { MAX_CLOCK_TEXT } from '@blis/engine/internal';
import { TraceReadError } from '../errors.js';

/** Options every trace reader takes. */
export interface TraceOptions {
  blockSizeTokens?: number;
  /** Multiply arrival times by this (0.5 replays twice as fast). */
  timeScale?: number;
  /** Read only the first N requests. */
  maxRequests?: number;
  /**
   * TraceV2 only: the data CSV, when it is not named after the header (BLIS's `--trace-data`);
   * the path passed to the reader is then the header.
   */
  dataPath?: string;
}

/**
 * Turns a pull-based row parser into a RequestSource: one request is read ahead (to answer
 * `peekArrivalUs`), arrivals must not decrease, and time scaling and the request cap apply here.
 */
export class TraceRequestSource implements RequestSource {
  /** A TraceV2 header's goodput thresholds by SLO class (ms), which a replay applies. */
  goodputSloTargets?: GoodputSloTargetsSpec;
  private readonly read: () => RequestSpec | undefined;
  private readonly scale: number;
  private readonly limit: number;
  private readonly file: string;
  private readonly lineOf: () => number;
  private ahead: RequestSpec | undefined;
  private count = 0;
  private lastRaw = Number.NEGATIVE_INFINITY;

  private readonly timeField: string;

  /** `timeField` names the trace's arrival-time column in errors. */
  constructor(file: string, read: () => RequestSpec | undefined, lineOf: () => number, opts: TraceOptions, timeField = 'arrival_time_us') {
    this.file = file;
    this.timeField = timeField;
    this.read = read;
    this.lineOf = lineOf;
    this.scale = opts.timeScale ?? 1;
    this.limit = opts.maxRequests ?? Number.POSITIVE_INFINITY;
    this.ahead = this.pull();
    // A trace of no request would "run" and report nothing: a wrong or truncated file.
    if (this.ahead === undefined && this.limit > 0)
      throw new TraceReadError({ file, expected: 'at least one request row', found: 'none' });
  }

  peekArrivalUs(): number {
    return this.ahead === undefined ? Number.POSITIVE_INFINITY : this.ahead.arrivalUs;
  }

  next(): RequestSpec | undefined {
    const r = this.ahead;
    if (r !== undefined) this.ahead = this.pull();
    return r;
  }

  private pull(): RequestSpec | undefined {
    if (this.count >= this.limit) return undefined;
    const r = this.read();
    if (r === undefined) return undefined;
    if (r.arrivalUs < this.lastRaw)
      throw new TraceReadError({
        file: this.file,
        line: this.lineOf(),
        field: this.timeField,
        expected: `a time at or after the previous row's (${this.lastRaw} µs after the start)`,
        found: `${r.arrivalUs} µs (timestamps must not decrease)`,
      });
    this.lastRaw = r.arrivalUs;
    r.index = this.count++;
    if (this.scale !== 1) {
      const timeout = r.deadlineUs > 0 ? r.deadlineUs - r.arrivalUs : 0;
      const raw = r.arrivalUs;
      r.arrivalUs = Math.floor(raw * this.scale);
      // Scaled past the clock's range (a time scale of 1e300), the request would only time out
      // at some absurd instant: refused at the first row it happens to.
      if (r.arrivalUs > MAX_CLOCK_US)
        throw new TraceReadError({
          file: this.file,
          line: this.lineOf(),
          field: this.timeField,
          expected: `an arrival time of at most ${MAX_CLOCK_TEXT}, once multiplied by the time scale ${this.scale}`,
          found: `${raw} µs, ${r.arrivalUs} µs once scaled`,
        });
      if (timeout > 0) r.deadlineUs = r.arrivalUs + timeout;
    }
    return r;
  }
}
