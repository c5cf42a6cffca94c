import { ThinkTimeDistError, parseThinkTimeDist, resolvedTargets } from '@blis/workload/internal';
import type { RequestSource } from '@blis/engine';
import { type LoadedSpec, type SloDimTargets, type ThinkTimeDist, createRequestSource, loadWorkloadSpec, specFromFlags } from '@blis/workload';
import { camel } from '../flags/flag-name.js';
import { requireReadable } from '../inputs/input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { presetAndLengths } from '../config/defaults-apply.js';
import { requireSpecFileSize } from '../inputs/spec-file-limit.js';

/** The workload `blis observe` sends, and what its header says about it. */
export interface ObserveWorkload {
  source: RequestSource;
  seed: number;
  /** The spec's path, or `preset:<name>`; undefined for plain flags. */
  label?: string;
  /** `--concurrency`: the closed loop's users (`--max-concurrency` defaults to them). */
  users?: number;
  /** Requests the run will send, when known (for the progress bar). */
  expected?: number;
  /** The spec's `goodput_slo_targets` (ms), which the header carries under the flags'. */
  goodputSloTargets?: Record<string, SloDimTargets>;
}

const FLAG_DRIVEN = ['rate', 'prompt-tokens', 'prompt-tokens-stdev', 'prompt-tokens-min', 'prompt-tokens-max', 'output-tokens', 'output-tokens-stdev', 'output-tokens-min', 'output-tokens-max', 'prefix-tokens', 'workload', 'arrival-process'];

const given = (f: Record<string, unknown>, names: readonly string[]) => names.filter((n) => f[camel(n)] !== undefined);

/**
 * The workload from `blis run`'s sources (a spec, a preset with --rate, or the length flags with
 * --rate) or BLIS's closed loop (--concurrency), with BLIS observe's rules: no per-request
 * deadline unless the spec sets one (--timeout is the HTTP limit here), and a bound is required.
 */
export function observeWorkload(f: Record<string, unknown>): ObserveWorkload {
  const issues: UsageIssue[] = [];
  const concurrency = f.concurrency as number | undefined;
  const horizon = f.horizon as number | undefined;
  const numRequests = f.numRequests as number | undefined;
  for (const name of ['think-time-ms', 'think-time-dist'] as const)
    if (concurrency === undefined && f[camel(name)] !== undefined) issues.push({ where: `--${name}`, expected: '--concurrency beside it (think time belongs to the closed loop)', found: 'no --concurrency' });
  if (f.thinkTimeMs !== undefined && f.thinkTimeDist !== undefined) issues.push({ where: '--think-time-dist', expected: 'one of --think-time-ms and --think-time-dist', found: 'both' });
  const thinkDist = thinkTimeDistFlag(f.thinkTimeDist as string | undefined, issues);
  if (typeof f.workloadSpec === 'string') {
    const conflicting = given(f, [...FLAG_DRIVEN, 'concurrency']);
    if (conflicting.length > 0) issues.push({ where: '--workload-spec', expected: 'no flag-driven workload flags beside it (closed-loop clients go in the spec)', found: conflicting.map((n) => `--${n}`).join(', ') });
    if (issues.length > 0) throw new UsageError(issues);
    requireReadable('--workload-spec', f.workloadSpec, 'workload spec file');
    requireSpecFileSize('--workload-spec', f.workloadSpec);
    const loaded = loadWorkloadSpec(f.workloadSpec);
    if (f.quiet !== true) for (const n of loaded.notes ?? []) process.stderr.write(`blis: note: ${n}\n`);
    // As BLIS: a real server manages its own adapters; the spec's are not sent.
    if (f.quiet !== true && loaded.clients.some((c) => c.adapter !== undefined && c.adapter !== ''))
      process.stderr.write('blis: warning: the spec names LoRA adapters (clients[].adapter); observe sends every request to --model, without them\n');
    const spec: LoadedSpec = { ...loaded, ...(horizon !== undefined ? { horizon } : {}) };
    const seed = (f.seed as number | undefined) ?? spec.seed;
    // A client without slo_class is sent without a class (no objective header, no priority), as BLIS sends it.
    const targets = resolvedTargets(spec.goodput_slo_targets);
    return {
      source: createRequestSource(spec, { seed, maxRequests: numRequests, defaultSloClass: '' }),
      seed,
      label: f.workloadSpec,
      expected: numRequests ?? spec.num_requests,
      ...(targets !== undefined ? { goodputSloTargets: targets } : {}),
    };
  }
  if (concurrency !== undefined) {
    const conflicting = given(f, ['rate', 'workload', 'arrival-process']);
    if (conflicting.length > 0) issues.push({ where: '--concurrency', expected: 'a closed loop without an arrival rate or preset', found: conflicting.map((n) => `--${n}`).join(', ') });
  } else if (f.rate === undefined) {
    issues.push({ where: f.workload !== undefined ? '--workload' : 'workload', expected: f.workload !== undefined ? '--rate beside a preset' : 'one of --workload-spec, --rate (with --workload or the length flags) or --concurrency', found: 'no --rate' });
  }
  if (numRequests === undefined && horizon === undefined) issues.push({ where: '--num-requests', expected: 'a bound on the requests: --num-requests or --horizon', found: 'neither' });
  if (issues.length > 0) throw new UsageError(issues);
  const seed = (f.seed as number | undefined) ?? 42;
  const spec = specFromFlags({
    rate: f.rate as number | undefined,
    numRequests,
    ...presetAndLengths(f, false),
    horizonUs: horizon,
    seed,
    // BLIS's closed loop: the concurrency client its generator draws (users, their lengths, their
    // next requests after each answer plus the think time), as `blis run --concurrency` makes it.
    ...(concurrency !== undefined ? { concurrency, thinkTimeMs: (f.thinkTimeMs as number | undefined) ?? 0 } : {}),
  });
  // Streamed, unlike BLIS's synthesized client (`streaming: false`): without streaming the first
  // chunk is the end of the body, so the trace would carry no TTFT. Only observe's copy of the
  // spec changes; `blis run` and `blis convert` keep BLIS's client. --no-streaming still wins.
  const streamed: LoadedSpec = { ...spec, clients: spec.clients.map((c) => ({ ...c, streaming: true })) };
  // Bounded by the horizon alone: no request count.
  const bounded: LoadedSpec = numRequests === undefined ? { ...streamed, num_requests: undefined } : streamed;
  return {
    // BLIS's flag-driven workload has no SLO class, so no priority either (vLLM refuses a
    // non-zero one unless priority scheduling is on). --think-time-dist replaces every user's
    // constant pause, drawn on the user's own generator (BLIS's applyThinkTimeSampler).
    source: createRequestSource(bounded, { defaultSloClass: '', ...(thinkDist !== undefined ? { thinkTime: thinkDist } : {}) }),
    seed,
    label: f.workload !== undefined ? `preset:${f.workload as string}` : undefined,
    ...(concurrency !== undefined ? { users: concurrency } : {}),
    expected: numRequests,
  };
}

/** `--think-time-dist` read, or its problem added to `issues`. */
function thinkTimeDistFlag(text: string | undefined, issues: UsageIssue[]): ThinkTimeDist | undefined {
  if (text === undefined) return undefined;
  try {
    return parseThinkTimeDist(text);
  } catch (e) {
    if (!(e instanceof ThinkTimeDistError)) throw e;
    issues.push({ where: `--think-time-dist ${e.part}`, expected: e.expected, found: e.found });
    return undefined;
  }
}
