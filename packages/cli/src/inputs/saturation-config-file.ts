import { readFileSync } from 'node:fs';
import { describeFound } from '@blis/policies/internal';
import type { SaturationAnalysisInput } from '@blis/cluster';
import { requireReadable } from './input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { type YamlFile, readYamlFile } from './yaml-file.js';

/** The tuning a --saturation-config file gives, as library config, and where each block is. */
export interface SaturationConfigFile {
  threshold?: NonNullable<SaturationAnalysisInput['threshold']>;
  backlogDrift?: NonNullable<SaturationAnalysisInput['backlogDrift']>;
  /** `file:line` of each block present, to name it in later complaints. */
  where: { threshold?: string; backlogDrift?: string };
}

type Rule = { camel: string; integer: boolean; ok: (v: number) => boolean; expected: string };

const rule = (camel: string, integer: boolean, ok: (v: number) => boolean, expected: string): Rule => ({ camel, integer, ok, expected });

/** BLIS's keys of each block and the ranges it enforces on them. */
const BLOCKS: Readonly<Record<'threshold' | 'backlog_drift', Readonly<Record<string, Rule>>>> = {
  threshold: { threshold_ms: rule('thresholdMs', false, (v) => v > 0, 'a finite number > 0 (ms)') },
  backlog_drift: {
    window_size_sec: rule('windowSizeSec', true, (v) => v > 0, 'a whole number of seconds > 0'),
    min_windows: rule('minWindows', true, (v) => v > 0, 'an integer > 0'),
    peak_ratio: rule('peakRatio', false, (v) => v > 0, 'a finite number > 0'),
    peak_ratio_band: rule('peakRatioBand', false, (v) => v >= 0, 'a finite number >= 0'),
    confidence_ci: rule('confidenceCi', false, (v) => v > 0 && v < 1, 'a number in (0, 1)'),
    warmup_windows: rule('warmupWindows', true, (v) => v >= 0, 'an integer >= 0'),
    tail_windows: rule('tailWindows', true, (v) => v >= 0, 'an integer >= 0'),
    saturated_drain_ratio: rule('saturatedDrainRatio', false, (v) => v > 0 && v <= 1, 'a number in (0, 1]'),
    transient_drain_ratio: rule('transientDrainRatio', false, (v) => v > 0 && v <= 1, 'a number in (0, 1]'),
  },
};

/** `file:line key.path`; a top-level key is placed on its own line, not on its block's first key. */
function where(file: YamlFile, path: readonly string[], text: string): string {
  let line = file.lineOf(path);
  if (path.length === 1) {
    const key = path[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const at = text.split('\n').findIndex((l) => new RegExp(`^["']?${key}["']?\\s*:`).test(l));
    if (at >= 0) line = at + 1;
  }
  return `${file.path}${line === undefined ? '' : `:${line}`} ${path.join('.')}`;
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One block's values as library config; a null block or key is absent, as under BLIS's decoder. */
function readBlock(file: YamlFile, text: string, name: 'threshold' | 'backlog_drift', value: unknown, issues: UsageIssue[]): Record<string, number> | undefined {
  if (value === null) return undefined;
  const rules = BLOCKS[name];
  if (!isMapping(value)) {
    issues.push({ where: where(file, [name], text), expected: `a mapping of ${Object.keys(rules).join(', ')}`, found: describeFound(value) });
    return undefined;
  }
  const out: Record<string, number> = {};
  for (const [key, v] of Object.entries(value)) {
    const r = rules[key];
    if (r === undefined) {
      issues.push({ where: where(file, [name, key], text), expected: `a key of BLIS's ${name}: block (${Object.keys(rules).join(', ')})`, found: `unknown key ${describeFound(key)}` });
      continue;
    }
    if (v === null) continue;
    const good = typeof v === 'number' && Number.isFinite(v) && (!r.integer || Number.isInteger(v)) && r.ok(v);
    if (!good) issues.push({ where: where(file, [name, key], text), expected: r.expected, found: file.numberText([name, key]) ?? describeFound(v) });
    else out[r.camel] = v;
  }
  return out;
}

/**
 * Reads a --saturation-config file: BLIS's strict YAML with an optional `threshold:` block and
 * an optional `backlog_drift:` block (composite has no tuning, so a `composite:` key is unknown).
 * An empty file means every default. Each problem names the file, line and key.
 */
export function loadSaturationConfig(path: string): SaturationConfigFile {
  requireReadable('--saturation-config', path, 'saturation configuration file');
  const file = readYamlFile(path, 'saturation configuration');
  // Read once more (a small file, already read within limits) to place top-level keys on their lines.
  const text = readFileSync(path, 'utf8');
  const top = file.value;
  const out: SaturationConfigFile = { where: {} };
  if (top === null || top === undefined) return out;
  if (!isMapping(top)) throw new UsageError([{ where: `${path}:1`, expected: 'a mapping with threshold: and/or backlog_drift: blocks (BLIS\'s --saturation-config format)', found: describeFound(top) }]);
  const issues: UsageIssue[] = [];
  for (const [key, value] of Object.entries(top)) {
    if (key !== 'threshold' && key !== 'backlog_drift') {
      const why = key === 'composite' ? ' (composite has no tunable parameters)' : '';
      issues.push({ where: where(file, [key], text), expected: `a threshold: or backlog_drift: block${why}`, found: `unknown key ${describeFound(key)}` });
      continue;
    }
    const block = readBlock(file, text, key, value, issues);
    if (block === undefined) continue;
    const at = where(file, [key], text);
    if (key === 'threshold') {
      out.threshold = block;
      out.where.threshold = at;
    } else {
      out.backlogDrift = block;
      out.where.backlogDrift = at;
    }
  }
  const bd = out.backlogDrift;
  if (bd !== undefined && issues.length === 0) {
    const sat = bd.saturatedDrainRatio ?? 0.95;
    const trans = bd.transientDrainRatio ?? 0.98;
    if (sat > trans)
      issues.push({ where: where(file, ['backlog_drift', bd.saturatedDrainRatio !== undefined ? 'saturated_drain_ratio' : 'transient_drain_ratio'], text), expected: `saturated_drain_ratio <= transient_drain_ratio (BLIS: the regions would overlap)`, found: `${sat} > ${trans}` });
  }
  if (issues.length > 0) throw new UsageError(issues);
  return out;
}
