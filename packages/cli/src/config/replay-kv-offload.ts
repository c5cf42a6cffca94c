import { reconcileReplayKVOffload } from '@blis/cluster/internal';
import { traceV2Pair } from '@blis/workload/internal';
import { describeFound } from '@blis/policies/internal';
import { existsSync } from 'node:fs';
import type { KVOffloadConfig, SimulationConfigInput } from '@blis/cluster';
import { detectTraceFormat, readTraceV2Header } from '@blis/workload';
import { kvOffloadConfigOf } from '../inputs/kv-offload-file.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { readYamlFile, whereIn, whereText } from '../inputs/yaml-file.js';

type TraceWorkload = Extract<NonNullable<SimulationConfigInput['workload']>, { kind: 'trace' }>;

/** The TraceV2 header a replay of `w` reads, if any: Mooncake and Azure traces have none. */
function headerPathOf(w: TraceWorkload): string | undefined {
  if (w.dataPath !== undefined) return w.path;
  let format = w.format;
  try {
    format ??= detectTraceFormat(w.path);
  } catch {
    return undefined; // opening the trace reports it
  }
  if (format !== 'tracev2') return undefined;
  const { header } = traceV2Pair(w.path);
  return existsSync(header) ? header : undefined;
}

/**
 * BLIS's INV-13 for `blis replay`: the offload chain to simulate, given the trace `w` and the
 * --kv-offload-config block `given`. The header's `kv_offload` block wins, and `given` must
 * match it; `given` may be added only to an observed trace (mode real; headerless traces count
 * as observed, as TraceV2 without a header defaults to mode real); a trace whose observed hit
 * rate is tiered needs an offload chain. Problems are pushed to `issues`.
 */
export function replayKVOffload(w: TraceWorkload, given: KVOffloadConfig | undefined, blockSizeTokens: number, kvCpuBlocks: number, issues: UsageIssue[]): KVOffloadConfig | undefined {
  const headerPath = headerPathOf(w);
  const header = headerPath !== undefined ? readTraceV2Header(headerPath) : undefined;
  const hfile = headerPath !== undefined ? readYamlFile(headerPath, 'TraceV2 header') : undefined;
  const outcome = reconcileReplayKVOffload({
    header: header?.kv_offload,
    mode: header?.mode ?? 'real',
    observedSource: header?.observed_kv_metrics?.source,
    given: given?.settings,
    blockSizeTokens,
  });
  if (!outcome.ok) {
    if (outcome.reason === 'conflict' && given !== undefined && hfile !== undefined) {
      for (const d of outcome.differences) {
        const key = ['kv_offload', ...d.key];
        issues.push({
          where: whereText(given.locate(d.key)),
          expected: `${JSON.stringify(d.header)}, the trace header's value (${whereIn(hfile, key)}; on replay the header is authoritative: omit --kv-offload-config or match it)`,
          found: describeFound(d.given),
        });
      }
    } else if (outcome.reason === 'added-to-simulated' && given !== undefined) {
      issues.push({
        where: `--kv-offload-config ${given.file}`,
        expected: `no offload config for a simulated trace (${headerPath} has mode ${JSON.stringify(header?.mode)} and no kv_offload block; BLIS lets a replay add one only to an observed trace, mode real)`,
        found: 'a kv_offload block',
      });
    } else if (outcome.reason === 'tiered-needs-offload' && hfile !== undefined) {
      issues.push({
        where: whereIn(hfile, ['observed_kv_metrics', 'source']),
        expected: 'a --kv-offload-config matching the observed deployment (this hit rate comes from vLLM\'s tiered offload counters, and a GPU-only replay is not comparable with it)',
        found: '"tiered" and no offload config',
      });
    }
    return undefined;
  }
  if (outcome.from !== 'header' || outcome.kvOffload === undefined || hfile === undefined) return given;
  if (kvCpuBlocks > 0)
    issues.push({
      where: '--kv-cpu-blocks',
      expected: `0 with a trace whose header records an offload chain (${whereIn(hfile, ['kv_offload'])}; the legacy CPU tier and the offload chain are distinct models)`,
      found: String(kvCpuBlocks),
    });
  try {
    // The recorded block as library config, checked against the header's own lines.
    return kvOffloadConfigOf(hfile.text, hfile.path, { blockSizeTokens, format: 'tracev2-header' });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    // BLIS refuses a recorded chain it cannot reproduce rather than replay without it.
    issues.push(...e.issues);
    return undefined;
  }
}
