import { describeFound } from '@blis/policies/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { goDurationNs } from '../flags/go-duration.js';
import type { UsageIssue } from '../errors/usage-error.js';

const DIMS = [
  ['sloTtft', 'slo-ttft', 'ttftMs'],
  ['sloItl', 'slo-itl', 'itlMs'],
  ['sloE2e', 'slo-e2e', 'e2eMs'],
] as const;

const EXPECTED = 'class=duration pairs, comma-separated, each duration positive with its unit (e.g. critical=100ms,standard=1.5s)';

/**
 * BLIS's parseSLODurationFlag (cmd/goodput.go): `class=duration,...` as class → ms, or what is
 * wrong with the first bad pair.
 */
export function parseClassDurations(text: string): Map<string, number> | string {
  const out = new Map<string, number>();
  for (const raw of text.trim().split(',')) {
    const pair = raw.trim();
    if (pair === '') return `an empty pair in ${describeFound(text)}`;
    const eq = pair.indexOf('=');
    if (eq < 0) return `${describeFound(pair)} (no "=")`;
    const cls = pair.slice(0, eq).trim();
    if (cls === '') return `an empty class in ${describeFound(pair)}`;
    const ns = goDurationNs(pair.slice(eq + 1).trim());
    if (ns === undefined) return `${describeFound(pair.slice(eq + 1).trim())} in ${describeFound(pair)}, not a duration`;
    if (ns <= 0n) return `a duration of ${describeFound(pair.slice(eq + 1).trim())} in ${describeFound(pair)}`;
    out.set(cls, Number(ns) / 1e6);
  }
  return out;
}

/**
 * `--slo-ttft`, `--slo-itl` and `--slo-e2e` of `run` and `replay`. As BLIS, a list of per-class
 * goodput thresholds (`critical=100ms,standard=500ms`), over the workload's
 * `goodput_slo_targets`; `--slo-ttft` and `--slo-e2e` also still take a bare integer of µs, the
 * one target this simulator's `slo_attainment` block judged every request by before.
 */
export function goodputFlagConfig(f: Record<string, unknown>, issues: UsageIssue[]): Pick<SimulationConfigInput, 'sloTtftUs' | 'sloE2eUs' | 'goodputSloTargets'> {
  const out: Pick<SimulationConfigInput, 'sloTtftUs' | 'sloE2eUs' | 'goodputSloTargets'> = {};
  const targets: NonNullable<SimulationConfigInput['goodputSloTargets']> = {};
  for (const [key, flag, dim] of DIMS) {
    const v = f[key];
    if (v === undefined) continue;
    const text = String(v).trim();
    if (text === '') continue;
    if (key !== 'sloItl' && /^\d+$/.test(text)) {
      const us = Number(text);
      if (!Number.isSafeInteger(us)) {
        issues.push({ where: `--${flag}`, expected: `a whole number of µs up to ${Number.MAX_SAFE_INTEGER}, or ${EXPECTED}`, found: describeFound(text) });
        continue;
      }
      if (key === 'sloTtft') out.sloTtftUs = us;
      else out.sloE2eUs = us;
      continue;
    }
    const parsed = parseClassDurations(text);
    if (typeof parsed === 'string') {
      issues.push({ where: `--${flag}`, expected: key === 'sloItl' ? EXPECTED : `${EXPECTED}, or a whole number of µs`, found: parsed });
      continue;
    }
    for (const [cls, ms] of parsed) targets[cls] = { ...targets[cls], [dim]: ms };
  }
  if (Object.keys(targets).length > 0) out.goodputSloTargets = targets;
  return out;
}
