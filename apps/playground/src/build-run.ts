import { SimulationConfigSchema, type SimulationConfigInput } from '@blis/cluster';
import { defaultPolicyRegistry, parseScorerList } from '@blis/policies';
import { splitListMessage } from '@blis/policies/internal';
import { WorkloadSpecError, parseWorkloadSpecText } from '@blis/workload';
import { configIssues } from './config-issues.js';
import { type FormValues, numberOrText } from './form-values.js';
import { type PageIssue, PageInputError, fromInputIssue } from './page-issue.js';
import type { RunRequest, TracePair } from './run-request.js';

/**
 * Turns the form into a run, validated as `blis run` validates its flags and files: the uploaded
 * spec with `@blis/workload`, the whole config with `SimulationConfigSchema`. Every problem found
 * is reported together, as a PageInputError.
 */
export async function buildRun(v: FormValues): Promise<RunRequest> {
  const issues: PageIssue[] = [];
  const seed = numberOrText(v.seed);
  let workload: SimulationConfigInput['workload'];
  let trace: TracePair | undefined;
  if (v.workloadKind === 'spec') {
    if (v.specFile === undefined) issues.push({ where: 'Spec file', expected: 'a WorkloadSpec v2 YAML file', found: 'nothing' });
    else {
      try {
        const spec = parseWorkloadSpecText(await v.specFile.text(), v.specFile.name);
        // An explicit seed overrides the spec's, as `blis run --seed` does.
        workload = { kind: 'spec', spec, seed: typeof seed === 'number' ? seed : undefined };
      } catch (e) {
        if (!(e instanceof WorkloadSpecError)) throw e;
        issues.push(...e.issues.map(fromInputIssue));
      }
    }
  } else if (v.workloadKind === 'trace') {
    if (v.traceHeader === undefined) issues.push({ where: 'Header (.yaml)', expected: 'a TraceV2 header file', found: 'nothing' });
    if (v.traceData === undefined) issues.push({ where: 'Data (.csv)', expected: 'a TraceV2 data file', found: 'nothing' });
    if (v.traceHeader !== undefined && v.traceData !== undefined) {
      trace = { headerName: v.traceHeader.name, headerText: await v.traceHeader.text(), dataName: v.traceData.name, dataText: await v.traceData.text() };
    }
  } else {
    workload = {
      kind: 'synthetic',
      preset: v.preset === '' ? undefined : v.preset,
      rate: numberOrText(v.rate) as number,
      numRequests: numberOrText(v.numRequests) as number,
    };
  }

  let scorers: { name: string; weight: number }[] | undefined;
  if (v.scorers !== '') {
    try {
      scorers = parseScorerList(v.scorers, defaultPolicyRegistry.names('scorer')).map((s) => ({ name: s.name, weight: s.weight }));
    } catch (e) {
      issues.push({ where: 'Scorers', ...splitListMessage((e as Error).message, '"name:weight,..." pairs') });
    }
  }

  const timeseriesIntervalUs = intervalUs(v.timeseriesMs, issues);
  const config: SimulationConfigInput = {
    seed: seed as number,
    numInstances: numberOrText(v.numInstances) as number,
    model: v.model,
    ...(v.hardware !== '' ? { hardware: v.hardware } : {}),
    routing: { policy: v.routing, ...(scorers !== undefined ? { scorers } : {}) },
    admission: { policy: v.admission },
    priority: { policy: v.priority },
    scheduler: { policy: v.scheduler },
    ...(workload !== undefined ? { workload } : {}),
    includeRequests: true,
    ...(timeseriesIntervalUs !== undefined ? { timeseriesIntervalUs } : {}),
  };
  const checked = SimulationConfigSchema.safeParse(config);
  if (!checked.success) issues.push(...configIssues(checked.error, config));
  if (issues.length > 0) throw new PageInputError(issues);
  return { config, ...(trace !== undefined ? { trace } : {}) };
}

/** The time series interval in whole µs, as `--timeseries-interval` takes it (ms); empty: none. */
function intervalUs(text: string, issues: PageIssue[]): number | undefined {
  if (text === '') return undefined;
  const ms = numberOrText(text);
  const us = typeof ms === 'number' ? Math.round(ms * 1000) : Number.NaN;
  // A zero or sub-µs interval would sample forever.
  if (!(us >= 1)) {
    issues.push({ where: 'Time series every (ms)', expected: 'an interval of at least 1µs (e.g. 1000 ms), or nothing for no time series', found: `${JSON.stringify(text)} ms` });
    return undefined;
  }
  return us;
}
