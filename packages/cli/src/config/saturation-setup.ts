import { quoteExcerpt } from '@blis/policies/internal';
import { isSaturationDetectorName } from '@blis/trace/internal';
import type { SaturationAnalysisInput } from '@blis/cluster';
import { SATURATION_DETECTOR_NAMES, type SaturationDetectorName } from '@blis/trace';
import { goDurationNs, nsToWholeUs } from '../flags/go-duration.js';
import { loadSaturationConfig } from '../inputs/saturation-config-file.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { checkWritableFile } from '../output/writable-file.js';

const VALID = `${SATURATION_DETECTOR_NAMES.join(', ')}, a detector module (./x.mjs), a comma-list of those, or all`;

/**
 * The detectors --detectors names, by BLIS's grammar: `all`; one name; or a comma-list (spaces
 * around names and empty entries ignored, `all` not allowed inside it).
 */
export function parseDetectorSelection(text: string, issues: UsageIssue[]): string[] {
  if (text === 'all') return [...SATURATION_DETECTOR_NAMES];
  const names = text.includes(',') ? text.split(',').map((s) => s.trim()).filter((s) => s !== '') : [text];
  if (names.includes('all')) {
    issues.push({ where: '--detectors', expected: `${VALID} ("all" alone: it is the whole roster, not a detector)`, found: quoteExcerpt(text) });
    return [];
  }
  if (names.length === 0) {
    issues.push({ where: '--detectors', expected: VALID, found: `${quoteExcerpt(text)} (no detector named)` });
    return [];
  }
  const unknown = [...new Set(names.filter((n) => !isSaturationDetectorName(n) && !isDetectorModule(n)))];
  if (unknown.length > 0) {
    // A few named, the rest counted: a pasted list must not flood the terminal.
    const shown = unknown.slice(0, 3).map((n) => quoteExcerpt(n));
    const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : '';
    issues.push({ where: '--detectors', expected: VALID, found: `unknown detector ${shown.join(', ')}${more}` });
    return [];
  }
  return names;
}

/** A --detectors entry that names a detector module (an ES module path) rather than a built-in. */
export function isDetectorModule(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || name.startsWith('/') || /\.(m?js|cjs)$/i.test(name);
}

/** The detector modules --detectors names, in order without repeats (none without --detectors). */
export function detectorModulePaths(f: Record<string, unknown>): string[] {
  if (typeof f.detectors !== 'string' || f.detectors === 'all') return [];
  const names = f.detectors.includes(',') ? f.detectors.split(',').map((s) => s.trim()) : [f.detectors];
  return [...new Set(names.filter(isDetectorModule))];
}

/** --saturation-final-window in whole µs, as BLIS reads it (a Go duration > 0). */
function finalWindowUs(text: string, issues: UsageIssue[]): number | undefined {
  const ns = goDurationNs(text);
  if (ns === undefined || ns <= 0n) {
    issues.push({ where: '--saturation-final-window', expected: 'a Go duration > 0 (e.g. 30s, 1m30s, 500ms)', found: quoteExcerpt(text) });
    return undefined;
  }
  return nsToWholeUs(ns);
}

/**
 * The `saturationAnalysis` config of the saturation flags, or undefined when --detectors is not
 * given (then the other three are refused: they would do nothing). Reads --saturation-config
 * and checks --saturation-report can be written, before the run.
 */
export function saturationAnalysisFromFlags(f: Record<string, unknown>): SaturationAnalysisInput | undefined {
  const detectors = f.detectors as string | undefined;
  if (detectors === undefined) {
    const needing = ['saturationConfig', 'saturationReport', 'saturationFinalWindow'].filter((k) => f[k] !== undefined);
    if (needing.length > 0)
      throw new UsageError(
        needing.map((k) => ({ where: `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, expected: 'to be given with --detectors (the saturation analysis is off without it)', found: 'no --detectors' })),
      );
    return undefined;
  }
  const issues: UsageIssue[] = [];
  const selected = parseDetectorSelection(detectors, issues);
  const names = selected.filter(isSaturationDetectorName) as SaturationDetectorName[];
  const window = typeof f.saturationFinalWindow === 'string' ? finalWindowUs(f.saturationFinalWindow, issues) : undefined;
  if (issues.length > 0) throw new UsageError(issues);
  const cfg = typeof f.saturationConfig === 'string' ? loadSaturationConfig(f.saturationConfig) : { where: {} as Record<string, string> };
  // BLIS refuses tuning for a detector that does not run rather than dropping it.
  for (const [block, owner] of [
    ['threshold', 'threshold'],
    ['backlogDrift', 'backlog-drift'],
  ] as const) {
    const at = cfg.where[block];
    if (at !== undefined && !names.includes(owner))
      issues.push({ where: at, expected: `no ${block === 'threshold' ? 'threshold' : 'backlog_drift'}: block unless ${owner} is among --detectors`, found: `--detectors ${detectors}` });
  }
  if (issues.length > 0) throw new UsageError(issues);
  if (typeof f.saturationReport === 'string') checkWritableFile('--saturation-report', f.saturationReport);
  const input: SaturationAnalysisInput = { detectors: names };
  if ('threshold' in cfg && cfg.threshold !== undefined) input.threshold = cfg.threshold;
  if ('backlogDrift' in cfg && cfg.backlogDrift !== undefined) input.backlogDrift = cfg.backlogDrift;
  if (window !== undefined) input.finalWindowUs = window;
  return input;
}
