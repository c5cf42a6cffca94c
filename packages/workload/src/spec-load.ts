import { dirname } from '#host-files';
import * as z from 'zod';
import type { ZodError } from 'zod';
import { describeFound } from '@blis/policies/internal';
import { customFound, describeExpected } from './describe-issue.js';
import { type InputIssue, WorkloadSpecError } from './errors.js';
import { expandInferencePerf, type InferencePerfOrigin } from './inference-perf/inference-perf-spec.js';
import { InferencePerfSpecSchema } from './inference-perf/inference-perf-schema.js';
import { specPath } from './cohorts/expand-cohorts.js';
import { type WorkloadSpec, WorkloadSpecSchema, lateWindowIssues } from './spec-schema.js';
import { upgradeV1Spec } from './spec-upgrade.js';
import { ServeGenDataSchema, loadServeGenSection } from './servegen/servegen-spec.js';
import { fieldPathText, quoteExcerpt, valueExcerpt } from './text-excerpt.js';
import { unboundedSpecIssues, windowRequestIssues } from './window-limits.js';
import { parseYamlInput, readYamlText, yamlLineOf, yamlNumberSource } from './yaml-input.js';
import { SpecMemo } from './spec-memo.js';

/**
 * A validated spec plus the directory relative paths in it (empirical CSVs) resolve against.
 * A spec written as an `inference_perf` section also carries BLIS's generation plan.
 */
export type LoadedSpec = WorkloadSpec & {
  readonly baseDir?: string;
  readonly inferencePerf?: InferencePerfOrigin;
  /** What reading the file changed, for stderr (a v1 spec upgraded to v2); absent when nothing. */
  readonly notes?: readonly string[];
};

/** Problems of a spec shown at most (a generated spec can repeat one mistake 300,000 times). */
const MAX_SPEC_ISSUES = 20;

/** Where a spec's fields are in its file: the line, and the text a number was written as when YAML could not hold it exactly. */
interface SpecSource {
  lineOf(path: readonly PropertyKey[]): number | undefined;
  numberText(path: readonly PropertyKey[]): string | undefined;
}

const NO_SOURCE: SpecSource = { lineOf: () => undefined, numberText: () => undefined };

function issuesOf(err: ZodError, file: string, source: SpecSource, raw: unknown): InputIssue[] {
  const lineOf = (p: readonly PropertyKey[]) => source.lineOf(p);
  const shown = err.issues.slice(0, MAX_SPEC_ISSUES).map((i): InputIssue => {
    const path = i.path as (string | number)[];
    if (i.code === 'unrecognized_keys') {
      const keys = i.keys;
      const shown = keys.slice(0, 5).map((k) => quoteExcerpt(k, 40)).join(', ');
      return { file, line: lineOf([...path, keys[0]]), field: fieldPathText([...path, keys[0]]), expected: 'a known field', found: `unknown field ${shown}${keys.length > 5 ? ` and ${keys.length - 5} more` : ''}` };
    }
    let value: unknown = raw;
    for (const k of path) value = value === null || typeof value !== 'object' ? undefined : (value as Record<string | number, unknown>)[k];
    // A number YAML could not hold exactly as it was written (9007199254740993 would read
    // ...992); other non-finite numbers as YAML wrote them (.nan, .inf), not as JSON would (null).
    const written = typeof value === 'number' ? source.numberText(path) : undefined;
    const shownValue = written !== undefined ? (written.length > 60 ? quoteExcerpt(written) : written) : typeof value === 'number' && !Number.isFinite(value) ? describeFound(value) : valueExcerpt(value);
    const found = customFound(i) ?? (value === undefined ? 'nothing (the field is missing)' : shownValue);
    return { file, line: lineOf(path), field: fieldPathText(path) || '(root)', expected: describeExpected(i, value), found };
  });
  const more = err.issues.length - shown.length;
  if (more > 0) shown.push({ file, expected: 'a valid workload spec', found: `${more} more problem(s), not shown` });
  return shown;
}

/** What a spec is read for, beyond the spec itself. */
export interface SpecLoadOptions {
  /**
   * The horizon of the run the spec is for (`--horizon`, `horizonUs`), when the spec has none
   * of its own or a later one: lifecycle windows that all open after it are refused, as windows
   * after the spec's own horizon are, rather than run as 0 requests. It also bounds a spec with
   * neither `num_requests` nor `horizon`.
   */
  runHorizonUs?: number;
  /** The run's request cap (`--num-requests`), which bounds a spec with neither `num_requests` nor `horizon` (as BLIS's does). */
  runNumRequests?: number;
  /**
   * The model the run serves (`--model`): a client naming another is refused. BLIS routes a
   * request only to instances of its model and rejects it when none serves it; every instance
   * here serves this one, so such a client could only have all its requests rejected.
   */
  runModel?: string;
}

/** Validates an already-parsed spec object (library use). */
export function parseWorkloadSpec(raw: unknown, file = '<spec>', opts: SpecLoadOptions = {}): LoadedSpec {
  return validateSpec(raw, file, NO_SOURCE, opts);
}

/**
 * A spec either lists `clients` or gives BLIS's `inference_perf` section, which expands into
 * clients (BLIS refuses both at once: "workload sources are mutually exclusive").
 */
function validateSpec(raw: unknown, file: string, source: SpecSource, opts: SpecLoadOptions, baseDir?: string): LoadedSpec {
  const spec = validateSpecAlone(raw, file, source, baseDir);
  const located = (issues: { path: (string | number)[]; expected: string; found: string }[]) =>
    new WorkloadSpecError(
      issues.slice(0, MAX_SPEC_ISSUES).map((i) => {
        const path = specPath(spec, i.path);
        return { file, line: source.lineOf(path), field: fieldPathText(path), expected: i.expected, found: i.found };
      }),
    );
  const h = opts.runHorizonUs;
  // An inference_perf section is bounded by its stages.
  const unbounded = spec.inferencePerf === undefined && opts.runNumRequests === undefined ? unboundedSpecIssues(spec, h) : [];
  if (unbounded.length > 0) throw located(unbounded);
  const model = opts.runModel;
  if (model !== undefined) {
    const wrong = spec.clients.flatMap((c, i) =>
      c.model === undefined || c.model === '' || c.model === model
        ? []
        : [{ path: ['clients', i, 'model'], expected: `the run's model ${model}, or none (every instance serves --model; BLIS would reject each of this client's requests at routing)`, found: JSON.stringify(c.model) }],
    );
    if (wrong.length > 0) throw located(wrong);
  }
  if (h !== undefined && (spec.horizon === undefined || spec.horizon > h)) {
    const late = lateWindowIssues(spec, h, `the run's horizon (${h} µs)`);
    if (late.length > 0) throw located(late);
  }
  // Cut at the spec's horizon, where the generator cuts windows (a run's --horizon ends the run, not the drawing).
  const crowded = windowRequestIssues(spec, spec.horizon);
  if (crowded.length > 0) throw located(crowded);
  return spec;
}

/** Specs validated alone (no files behind them), by their JSON text; see spec-memo.ts. */
const validated = new SpecMemo<LoadedSpec>();

function validateSpecAlone(raw: unknown, file: string, source: SpecSource, baseDir: string | undefined): LoadedSpec {
  // ServeGen data is read from files that may change between calls: never remembered.
  const key = raw !== null && typeof raw === 'object' && !('servegen_data' in raw) ? validated.keyOf(raw) : undefined;
  if (key !== undefined) {
    const hit = validated.get(key);
    if (hit !== undefined) return hit;
  }
  const spec = validateSpecFresh(raw, file, source, baseDir);
  if (key !== undefined) validated.set(key, spec);
  return spec;
}

function validateSpecFresh(raw: unknown, file: string, source: SpecSource, baseDir: string | undefined): LoadedSpec {
  const lineOf = (p: readonly PropertyKey[]) => source.lineOf(p);
  if (raw !== null && typeof raw === 'object' && 'inference_perf' in raw) {
    for (const other of ['clients', 'servegen_data'])
      if (other in raw)
        throw new WorkloadSpecError([{ file, line: lineOf([other]), field: other, expected: `either ${other} or inference_perf (the two are exclusive workload sources)`, found: 'both' }]);
    const r = InferencePerfSpecSchema.safeParse(raw);
    if (!r.success) throw new WorkloadSpecError(issuesOf(r.error, file, source, raw));
    const expanded = expandInferencePerf(r.data);
    if ('issues' in expanded)
      throw new WorkloadSpecError(expanded.issues.map((i) => ({ file, line: lineOf(i.path), field: fieldPathText(i.path), expected: i.expected, found: i.found })));
    return expanded.spec;
  }
  const upgraded = upgradeV1Spec(raw);
  const loaded = withServeGenCohorts(upgraded.raw, file, source, baseDir);
  const r = WorkloadSpecSchema.safeParse(loaded.raw);
  if (!r.success) throw new WorkloadSpecError(issuesOf(r.error, file, source, loaded.raw));
  const notes = [...upgraded.notes, ...loaded.notes];
  return notes.length > 0 ? { ...r.data, notes } : r.data;
}

const ServeGenSectionSchema = z.object({ servegen_data: ServeGenDataSchema, seed: z.number().int().optional() });

/**
 * A spec with `servegen_data`, its directory loaded into `cohorts` (and, for reasoning data, its
 * category set) as BLIS loads it before validating; any other spec as it is. The section is a
 * workload source of its own: beside `clients` or `cohorts` it is refused (BLIS refuses the
 * first and silently ignores the data beside the second).
 */
function withServeGenCohorts(raw: unknown, file: string, source: SpecSource, baseDir: string | undefined): { raw: unknown; notes: string[] } {
  if (raw === null || typeof raw !== 'object' || !('servegen_data' in raw)) return { raw, notes: [] };
  for (const other of ['clients', 'cohorts'])
    if (other in raw)
      throw new WorkloadSpecError([{ file, line: source.lineOf([other]), field: other, expected: `either ${other} or servegen_data (the two are exclusive workload sources)`, found: 'both' }]);
  const r = ServeGenSectionSchema.safeParse(raw);
  if (!r.success) throw new WorkloadSpecError(issuesOf(r.error, file, source, raw));
  const got = loadServeGenSection(r.data.servegen_data, r.data.seed ?? 0, file, baseDir, source.lineOf(['servegen_data', 'path']));
  const spec = raw as Record<string, unknown>;
  return { raw: { ...spec, cohorts: got.cohorts, ...(got.category !== undefined ? { category: got.category } : {}) }, notes: got.notes };
}

/** Reads, parses and validates a WorkloadSpec YAML file (v2, or v1 upgraded as BLIS does); every error names its line. */
export function loadWorkloadSpec(path: string, opts: SpecLoadOptions = {}): LoadedSpec {
  const read = readYamlText(path, 'workload spec');
  if (!read.ok) throw new WorkloadSpecError(read.issues);
  const baseDir = dirname(path);
  return { ...parseText(read.text, path, opts, baseDir), baseDir };
}

/**
 * Parses and validates a WorkloadSpec v2 from YAML text (an upload, no file system); every error
 * names `file` and its line. Relative paths in it (empirical CSVs) have no directory to resolve in.
 */
export function parseWorkloadSpecText(text: string, file: string, opts: SpecLoadOptions = {}): LoadedSpec {
  return parseText(text, file, opts, undefined);
}

function parseText(text: string, file: string, opts: SpecLoadOptions, baseDir: string | undefined): LoadedSpec {
  const parsed = parseYamlInput(text, file);
  if (!parsed.ok) throw new WorkloadSpecError(parsed.issues);
  const raw = parsed.yaml.value;
  return validateSpec(raw, file, { lineOf: (p) => yamlLineOf(parsed.yaml, p), numberText: (p) => yamlNumberSource(parsed.yaml, p) }, opts, baseDir);
}

/**
 * The notes reading a spec file would give (a v1 spec upgraded), without validating it: for a
 * caller that hands the path on to be loaded later and has stderr now. Nothing for a file that
 * cannot be read or parsed (loading it reports that).
 */
export function workloadSpecNotes(path: string): readonly string[] {
  const read = readYamlText(path, 'workload spec');
  if (!read.ok) return [];
  const parsed = parseYamlInput(read.text, path);
  return parsed.ok ? upgradeV1Spec(parsed.yaml.value).notes : [];
}
