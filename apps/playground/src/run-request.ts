import type { SimulationConfigInput } from '@blis/cluster';

/** An uploaded TraceV2 pair: the worker reads it with `@blis/workload`'s text reader. */
export interface TracePair {
  headerName: string;
  headerText: string;
  dataName: string;
  dataText: string;
}

/** What the page hands the worker: a validated config, and the trace when one was uploaded. */
export interface RunRequest {
  config: SimulationConfigInput;
  trace?: TracePair;
}
