import type { PreparedRun, SimulationResult } from '@blis/cluster';

/** Decision tracing hooks for a prepared run; none until a trace level other than `none` is asked for. */
export interface AttachedTracing {
  finish(result: SimulationResult): void;
}

export function attachTracing(prepared: PreparedRun): AttachedTracing | undefined {
  if (prepared.config.trace.level === 'none' && !prepared.config.trace.summarize) return undefined;
  return undefined;
}
