import { type SimulationConfig, SimulationConfigSchema, type SimulationConfigInput, type SimulationResult, createTraceRecorder } from '@blis/cluster';
import { JsonlFileSink, TraceOutputError, type TraceRecorder } from '@blis/trace';
import { UsageError } from '../errors/usage-error.js';

/** A recorder wired for one run: pass `observer` to the simulation, call `finish` after it. */
export interface AttachedTracing {
  readonly observer: TraceRecorder;
  /** Closes the trace file and adds `anomalies` (and `trace_summary`) to the result. */
  finish(result: SimulationResult, endUs: number): void;
}

/** The flag behind each trace setting, for error messages. */
const FLAG_OF: Record<string, string> = {
  level: '--trace-level',
  outputPath: '--decision-trace',
  counterfactualK: '--counterfactual-k',
  summarize: '--summarize-trace',
  summaryMaxTokens: '--summary-max-tokens',
  summaryStrategy: '--summary-strategy',
  tailRatioThreshold: '--tail-ratio-threshold',
};

function validated(input: SimulationConfigInput): SimulationConfig {
  const parsed = SimulationConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const traceIssues = parsed.error.issues.filter((i) => i.path[0] === 'trace');
  // Other problems are reported by the simulation's own validation, as for an untraced run.
  if (traceIssues.length === 0 || traceIssues.length !== parsed.error.issues.length) throw parsed.error;
  throw new UsageError(
    traceIssues.map((i) => {
      const field = String(i.path[1] ?? '');
      const value = (input.trace as Record<string, unknown> | undefined)?.[field];
      return { where: FLAG_OF[field] ?? `trace.${field}`, expected: i.message.replace(/, found .*$/, '').replace(/^[^:]*: expected /, ''), found: /, found (.*)$/.exec(i.message)?.[1] ?? JSON.stringify(value) ?? 'nothing' };
    }),
  );
}

/**
 * Builds the recorder a run's trace settings ask for, before the simulation is prepared (the
 * cluster takes its observer at construction). Returns undefined for `--trace-level none`
 * without `--summarize-trace`: then nothing is attached and the run is exactly an untraced one.
 * `customDecider` and `customAutoscaler` name a P/D decider and an autoscaler loaded from
 * modules (they are not in the config).
 */
export function createTracing(input: SimulationConfigInput, customDecider?: string, customAutoscaler?: string): AttachedTracing | undefined {
  // A run that sets nothing about tracing (the default) skips validating the whole config here
  // (the simulator does that); any trace setting is checked here, so its error names its flag.
  if (Object.entries(input.trace ?? {}).every(([k, v]) => v === undefined || (k === 'summarize' && v === false) || (k === 'level' && v === 'none'))) return undefined;
  const config = validated(input);
  const t = config.trace;
  if (t.level === 'none' && !t.summarize) return undefined;
  let sink: JsonlFileSink | undefined;
  if (t.outputPath !== undefined) {
    try {
      sink = new JsonlFileSink(t.outputPath);
    } catch (e) {
      if (e instanceof TraceOutputError) throw new UsageError([{ where: '--decision-trace', expected: 'a writable file', found: `${e.code} (${e.path})` }]);
      throw e;
    }
  }
  const observer = createTraceRecorder(config, { sink, customDecider, customAutoscaler });
  return {
    observer,
    finish(result, endUs) {
      const report = observer.finish(endUs, t.summarize ? { strategy: t.summaryStrategy, maxTokens: t.summaryMaxTokens } : undefined);
      result.anomalies = report.anomalies;
      if (report.trace_summary !== undefined) result.trace_summary = report.trace_summary;
    },
  };
}
