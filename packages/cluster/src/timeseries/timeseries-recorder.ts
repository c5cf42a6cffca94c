import type { InstanceSimulator } from '@blis/engine';
import { SampleColumn } from './sample-column.js';

/** What the recorder reads from the cluster at each sample (the ClusterSimulator, structurally). */
export interface TimeSeriesHost {
  readonly instances: readonly InstanceSimulator[];
  readonly hasGateway: boolean;
  readonly gatewayLength: number;
  readonly fleet: { readonly holdingReplicas: number; readonly routableIndices: readonly number[]; costUsdAt(nowUs: number): number } | undefined;
  readonly pd: { readonly transferring: number } | undefined;
}

/** One instance's columns; `start` is the sample index at which the instance first existed. */
export interface InstanceColumns {
  start: number;
  readonly queueDepth: SampleColumn;
  readonly running: SampleColumn;
  readonly kvUtilization: SampleColumn;
  /** Cumulative prefix-cache hits and lookups, and completions: turned into per-interval figures on output. */
  readonly cacheHits: SampleColumn;
  readonly cacheLookups: SampleColumn;
  readonly completed: SampleColumn;
}

/** Cluster-wide columns, present only when the run has the part they describe. */
export interface ClusterColumns {
  readonly gatewayQueue: SampleColumn | undefined;
  readonly replicas: SampleColumn | undefined;
  readonly routable: SampleColumn | undefined;
  readonly costUsd: SampleColumn | undefined;
  readonly kvTransfers: SampleColumn | undefined;
}

/**
 * Samples per-instance signals on a fixed grid of simulated time (0, I, 2I, ...). The cluster
 * calls {@link sampleBefore} only when an event lies past the next grid point, so a run without a
 * recorder pays one comparison per event. A sample at `t` is the state after every event at or
 * before `t`. Memory stays under `maxSamples` per column: at the cap the interval doubles and
 * every other sample is dropped.
 */
export class TimeSeriesRecorder {
  intervalUs: number;
  /** The next grid point to sample. */
  nextUs = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  /** Samples taken (after any halving, the samples kept). */
  count = 0;
  /** Time of the last sample when it is the run's end rather than a grid point. */
  endSampleUs: number | undefined;
  readonly instances: InstanceColumns[] = [];
  readonly cluster: ClusterColumns;
  private readonly maxSamples: number;

  constructor(intervalUs: number, maxSamples: number, host: TimeSeriesHost) {
    if (!(intervalUs > 0)) throw new RangeError(`time series interval must be > 0 µs, got ${intervalUs}`);
    if (!(maxSamples >= 2)) throw new RangeError(`time series needs room for at least 2 samples, got ${maxSamples}`);
    this.intervalUs = intervalUs;
    this.maxSamples = maxSamples;
    const fleet = host.fleet !== undefined;
    this.cluster = {
      gatewayQueue: host.hasGateway ? new SampleColumn() : undefined,
      replicas: fleet ? new SampleColumn() : undefined,
      routable: fleet ? new SampleColumn() : undefined,
      costUsd: fleet ? new SampleColumn() : undefined,
      kvTransfers: host.pd !== undefined ? new SampleColumn() : undefined,
    };
  }

  /** Samples every grid point strictly before `t` (the tick of the event about to run). */
  sampleBefore(t: number, host: TimeSeriesHost): void {
    while (this.nextUs < t) this.take(host);
  }

  /** Samples every grid point up to and including `t` (the end of the run). */
  sampleThrough(t: number, host: TimeSeriesHost): void {
    while (this.nextUs <= t) this.take(host);
  }

  /**
   * Ends the series at the run's end: events past it (deadlines of requests that already left)
   * may have triggered samples of an idle cluster, which are not part of the run.
   */
  endAt(endUs: number): void {
    const keep = Math.min(this.count, Math.floor(endUs / this.intervalUs) + 1);
    if (keep === this.count) return;
    for (const cols of this.instances) for (const col of instanceColumnList(cols)) col.truncate(keep - cols.start);
    for (const col of Object.values(this.cluster)) col?.truncate(keep);
    this.count = keep;
  }

  /** One last sample at the run's end when it falls between grid points, so per-interval counts add up to the run's. */
  sampleEnd(endUs: number, host: TimeSeriesHost): void {
    if (this.count > 0 && (this.count - 1) * this.intervalUs >= endUs) return;
    this.record(host, endUs);
    this.count++;
    this.endSampleUs = endUs;
  }

  private take(host: TimeSeriesHost): void {
    this.record(host, this.nextUs);
    this.count++;
    if (this.count >= this.maxSamples) this.halve();
    this.nextUs = this.count * this.intervalUs;
  }

  private record(host: TimeSeriesHost, at: number): void {
    const insts = host.instances;
    while (this.instances.length < insts.length) this.instances.push(newInstanceColumns(this.count));
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i];
      const cols = this.instances[i];
      const st = inst.kv.stats();
      cols.queueDepth.push(inst.queueDepth);
      cols.running.push(inst.batchSize);
      cols.kvUtilization.push(inst.kv.utilization);
      cols.cacheHits.push(st.cacheHits);
      cols.cacheLookups.push(st.cacheHits + st.cacheMisses);
      cols.completed.push(inst.metrics.completed);
    }
    const c = this.cluster;
    c.gatewayQueue?.push(host.gatewayLength);
    const fleet = host.fleet;
    if (fleet !== undefined) {
      c.replicas!.push(fleet.holdingReplicas);
      c.routable!.push(fleet.routableIndices.length);
      c.costUsd!.push(fleet.costUsdAt(at));
    }
    if (host.pd !== undefined) c.kvTransfers!.push(host.pd.transferring);
  }

  /** Doubles the interval, keeping the samples that fall on the coarser grid (even indices). */
  private halve(): void {
    for (const cols of this.instances) {
      // The first kept sample is the instance's first one at an even global index.
      const first = cols.start % 2;
      for (const col of instanceColumnList(cols)) col.keepEveryOther(first);
      cols.start = (cols.start + first) / 2;
    }
    for (const col of Object.values(this.cluster)) col?.keepEveryOther(0);
    this.count = Math.ceil(this.count / 2);
    this.intervalUs *= 2;
  }
}

function newInstanceColumns(start: number): InstanceColumns {
  return {
    start,
    queueDepth: new SampleColumn(),
    running: new SampleColumn(),
    kvUtilization: new SampleColumn(),
    cacheHits: new SampleColumn(),
    cacheLookups: new SampleColumn(),
    completed: new SampleColumn(),
  };
}

function instanceColumnList(c: InstanceColumns): SampleColumn[] {
  return [c.queueDepth, c.running, c.kvUtilization, c.cacheHits, c.cacheLookups, c.completed];
}
