import * as z from 'zod';
import { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger, quoteExcerpt } from '@blis/policies/internal';
import { camel } from './flag-name.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

/** How a flag's text becomes a value, and what it must satisfy. */
export type FlagKind =
  | 'int'
  | 'nonNegInt'
  | 'posInt'
  | 'number'
  | 'posNumber'
  | 'nonNegNumber'
  | 'fraction'
  | 'unitInterval'
  | 'string'
  | 'bool'
  /** Repeatable: every occurrence's text, in order. */
  | 'strings'
  | 'triple'
  | 'numbers'
  /** A positive bandwidth in GB/s: `25` or `25GB/s`. */
  | 'gbps'
  /** A non-negative duration in ms: `0.05`, or with a unit: `1ms`, `500us`, `2s`. */
  | 'ms'
  /** A non-negative duration with its unit, as µs: `30s`, `2m`, `500ms`, `250us`; a bare `0`. */
  | 'duration';

/** The simulated clock's range (`MAX_CLOCK_US` of @blis/engine, which the flag tables do not load). */
const MAX_DURATION_US = Number.MAX_SAFE_INTEGER;

export interface FlagDef {
  /** Long name without dashes, e.g. `max-num-seqs`. */
  name: string;
  /** Old names accepted too (BLIS's previous spellings). */
  aliases?: string[];
  kind: FlagKind;
  /** Allowed values for enum-like string flags. */
  choices?: readonly string[];
  description: string;
  /** Shown in help; applied by the config builder, not here. */
  defaultText?: string;
  group: string;
  /** The largest value a numeric flag takes, and why (stated whenever a value passes it). */
  max?: { value: number; why: string };
}

/** Number kinds: plain decimal text (see `parseDecimal`), an integer or not, and the range it must be in. */
const numeric: Partial<Record<FlagKind, { integer: boolean; ok: (n: number) => boolean }>> = {
  int: { integer: true, ok: () => true },
  nonNegInt: { integer: true, ok: (n) => n >= 0 },
  posInt: { integer: true, ok: (n) => n > 0 },
  number: { integer: false, ok: () => true },
  posNumber: { integer: false, ok: (n) => n > 0 },
  nonNegNumber: { integer: false, ok: (n) => n >= 0 },
  fraction: { integer: false, ok: (n) => n > 0 && n <= 1 },
  unitInterval: { integer: false, ok: (n) => n >= 0 && n <= 1 },
};

/** What each kind expects, in the user's words; the schema reads the kinds that are not numeric. */
const parsers: Record<FlagKind, { schema?: z.ZodType; expected: string }> = {
  int: { expected: 'an integer' },
  nonNegInt: { expected: 'a non-negative integer' },
  posInt: { expected: 'a positive integer' },
  number: { expected: 'a number' },
  posNumber: { expected: 'a positive number' },
  nonNegNumber: { expected: 'a non-negative number' },
  fraction: { expected: 'a number in (0, 1]' },
  unitInterval: { expected: 'a number in [0, 1]' },
  string: { schema: z.string().min(1), expected: 'a non-empty string' },
  bool: { schema: z.boolean(), expected: 'no value (a switch)' },
  strings: { schema: z.array(z.string().min(1)), expected: 'a non-empty value' },
  triple: { schema: z.string(), expected: 'three comma-separated numbers' },
  numbers: { schema: z.string(), expected: 'comma-separated numbers' },
  gbps: { schema: z.string(), expected: 'a positive number of GB/s (e.g. 25 or "10GB/s")' },
  ms: { schema: z.string(), expected: 'a non-negative number of ms (e.g. 0.05), or a duration with its unit ("1ms", "500us", "2s")' },
  duration: { schema: z.string(), expected: 'a duration with its unit: us, ms, s or m (e.g. "30s", "2m", "500ms"; a bare 0 is none)' },
};

/** A numeric flag's value, or undefined after pushing what was wrong with it. */
function parseNumericFlag(kind: FlagKind, where: string, text: string, issues: UsageIssue[], max?: FlagDef['max']): number | undefined {
  const spec = numeric[kind];
  if (spec === undefined) throw new Error(`not a numeric flag kind: ${kind}`);
  const expected = parsers[kind].expected;
  // Text JavaScript would read as a number (`0x10`, `Infinity`, ` 5`, `1e999`) gets told which forms are read.
  const otherForm = !Number.isNaN(Number(text)) || /^\s*[+-]?NaN\s*$/.test(text);
  const form = otherForm ? ` (in decimal, e.g. ${spec.integer ? '16 or 1e3' : '2.5 or 1e3'})` : '';
  if (spec.integer) {
    const n = parseDecimalInteger(text);
    if (n === 'too-large') issues.push({ where, expected: `${expected} up to ${MAX_EXACT_INTEGER}`, found: quoteExcerpt(text) });
    else if (n === 'not-a-number') issues.push({ where, expected: `${expected}${form}`, found: quoteExcerpt(text) });
    else if (n === 'fractional' || !spec.ok(n)) issues.push({ where, expected, found: quoteExcerpt(text) });
    else if (max !== undefined && n > max.value) issues.push({ where, expected: `${expected} up to ${max.value} (${max.why})`, found: quoteExcerpt(text) });
    else return n;
    return undefined;
  }
  const n = parseDecimal(text);
  // A decimal past the largest double (1e400) reads as Infinity: say so, and what the limit is.
  const limit = max === undefined ? `${expected} up to ${Number.MAX_VALUE} (the largest finite number)` : `${expected} up to ${max.value} (${max.why})`;
  if (n === undefined && parseDecimalInteger(text) === 'too-large') issues.push({ where, expected: limit, found: `${quoteExcerpt(text)} (not finite)` });
  else if (n === undefined) issues.push({ where, expected: `${expected}${form}`, found: quoteExcerpt(text) });
  else if (!spec.ok(n)) issues.push({ where, expected, found: quoteExcerpt(text) });
  else if (max !== undefined && n > max.value) issues.push({ where, expected: limit, found: quoteExcerpt(text) });
  else return n;
  return undefined;
}

const DURATION = /^(\d+(?:\.\d*)?|\.\d+)\s*(us|µs|μs|ms|s|m)?$/;
/** Powers of ten from each unit to µs (a minute is 60 s). */
const DURATION_EXPONENT: Readonly<Record<string, number>> = { us: 0, µs: 0, μs: 0, ms: 3, s: 6, m: 6 };

/**
 * `raw` (`30s`, `1.5m`, `500ms`, `250us`, or a bare `0`) in µs, or undefined when it is malformed,
 * negative or a bare nonzero number (whose unit would be a guess). The decimal point is shifted
 * in the text, so 1.1s is 1100000 µs exactly.
 */
export function durationUs(raw: string): number | undefined {
  const m = DURATION.exec(raw);
  if (m === null) return undefined;
  if (m[2] === undefined) return Number(m[1]) === 0 ? 0 : undefined;
  const us = Number(`${m[1]}e${DURATION_EXPONENT[m[2]]}`);
  return m[2] === 'm' ? us * 60 : us;
}

/** `raw` as a number of the flag's unit (GB/s or ms), or undefined when it is malformed or out of range. */
function unitValue(kind: 'gbps' | 'ms', raw: string): number | undefined {
  const m = kind === 'gbps' ? /^(.*?)\s*(GB\/s)?$/.exec(raw) : /^(.*?)\s*(ms|us|µs|μs|s)?$/.exec(raw);
  const n = m === null ? undefined : parseDecimal(m[1]);
  if (m === null || n === undefined) return undefined;
  if (kind === 'gbps') return n > 0 ? n : undefined;
  // 500us = 500 / 1000 ms (dividing keeps decimal values exact, as 500 * 0.001 would not).
  const v = m[2] === undefined || m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n / 1000;
  return v >= 0 ? v : undefined;
}

/** Parses one flag's raw text; pushes an issue and returns undefined when it is bad. */
export function parseFlagValue(def: FlagDef, raw: unknown, issues: UsageIssue[]): unknown {
  if (raw === undefined) return undefined;
  const where = `--${def.name}`;
  if (def.kind === 'triple') {
    const parts = String(raw).split(',').map((s) => s.trim());
    const nums = parts.map((p) => parseDecimal(p) ?? Number.NaN);
    if (parts.length !== 3 || nums.some((n) => !Number.isFinite(n))) {
      issues.push({ where, expected: 'three comma-separated numbers (e.g. "1000,2.5,0")', found: quoteExcerpt(String(raw)) });
      return undefined;
    }
    return nums;
  }
  if (def.kind === 'numbers') {
    // How many are needed depends on the latency model; the config builder checks the count.
    const parts = String(raw).split(',').map((s) => s.trim());
    const nums = parts.map((p) => parseDecimal(p) ?? Number.NaN);
    if (nums.some((n) => !Number.isFinite(n))) {
      issues.push({ where, expected: 'comma-separated numbers (e.g. "1000,2.5,0")', found: quoteExcerpt(String(raw)) });
      return undefined;
    }
    return nums;
  }
  if (def.kind === 'duration') {
    const text = String(raw);
    const v = durationUs(text);
    if (v === undefined) {
      const bare = (parseDecimal(text) ?? 0) > 0;
      issues.push({ where, expected: parsers.duration.expected, found: `${quoteExcerpt(text)}${bare ? ' (no unit)' : ''}` });
    } else if (v > MAX_DURATION_US) {
      // A replica loading for 3e11 s served nothing within any run the clock can hold.
      issues.push({ where, expected: `a duration of at most ${MAX_DURATION_US} µs (the simulated clock's range of about 285 years)`, found: quoteExcerpt(text) });
      return undefined;
    }
    return v;
  }
  if (def.kind === 'gbps' || def.kind === 'ms') {
    const v = unitValue(def.kind, String(raw));
    if (v === undefined) issues.push({ where, expected: parsers[def.kind].expected, found: quoteExcerpt(String(raw)) });
    return v;
  }
  if (typeof raw === 'string' && raw.trim() === '' && def.kind !== 'string') {
    issues.push({ where, expected: parsers[def.kind].expected, found: 'an empty value' });
    return undefined;
  }
  if (numeric[def.kind] !== undefined) return parseNumericFlag(def.kind, where, String(raw), issues, def.max);
  const p = parsers[def.kind];
  const r = (p.schema ?? z.never()).safeParse(raw);
  if (!r.success) {
    issues.push({ where, expected: p.expected, found: typeof raw === 'string' ? quoteExcerpt(raw) : JSON.stringify(raw) });
    return undefined;
  }
  if (def.choices !== undefined && !def.choices.includes(r.data as string)) {
    issues.push({ where, expected: `one of ${def.choices.join(', ')}`, found: quoteExcerpt(String(raw)) });
    return undefined;
  }
  return r.data;
}

/**
 * Validates every flag in `raw` (camelCase keys as commander produces them) against `defs`,
 * collecting all problems before failing, so the user sees them together.
 */
export function parseFlags(defs: readonly FlagDef[], raw: Record<string, unknown>): Record<string, unknown> {
  const issues: UsageIssue[] = [];
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const names = [def.name, ...(def.aliases ?? [])];
    const given = names.filter((n) => raw[camel(n)] !== undefined);
    if (given.length > 1) {
      issues.push({ where: `--${def.name}`, expected: `one of ${given.map((g) => `--${g}`).join(' or ')}`, found: 'both' });
      continue;
    }
    if (given.length === 0) continue;
    const v = parseFlagValue(def, raw[camel(given[0])], issues);
    if (v !== undefined) out[camel(def.name)] = v;
  }
  if (issues.length > 0) throw new UsageError(issues);
  return out;
}

export { camel } from './flag-name.js';
