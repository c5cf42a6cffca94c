import { type SimulationConfigInput, SimulationConfigSchema } from '@blis/cluster';
import { listPolicies, parseScorerList } from '@blis/policies';
import { describeFound, describeZodExpected, formatParamPath, splitListMessage, valueAtPath } from '@blis/policies/internal';
import type { core } from 'zod';
import { withRegisteredScorerNames } from '../policy-modules/scorer-list.js';
import type { UsageIssue } from '../errors/usage-error.js';

// The prefill/decode (P/D) flags of `blis run` and `blis replay` as the config's `pd` block, and
// the config's complaints about that block named by flag. Only the settings the user gave are
// set, so the config's rule "a P/D setting needs P/D instances" sees them.

type PdInput = NonNullable<SimulationConfigInput['pd']>;
type PoolInput = NonNullable<PdInput['prefill']>;

/** The built-in and registered decider names. */
function deciderNames(): readonly string[] {
  return listPolicies().decider;
}

const POOL_FIELDS: readonly (readonly [keyof PoolInput, string])[] = [
  ['tp', 'tp'],
  ['hardware', 'hardware'],
  ['latencyModel', 'latency-model'],
  ['maxModelLen', 'max-model-len'],
];

/** The flag that sets each `pd` field; pool overrides as `prefill.tp`. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  prefillInstances: '--prefill-instances',
  decodeInstances: '--decode-instances',
  prefillDecodeInstances: '--prefill-decode-instances',
  decider: '--pd-decider',
  encodeInstances: '--encode-instances',
  encodeDecider: '--encode-decider',
  prefixThreshold: '--pd-prefix-threshold',
  transferBandwidthGBps: '--pd-transfer-bandwidth',
  transferBaseLatencyMs: '--pd-transfer-base-latency',
  transferContention: '--pd-transfer-contention',
  prefillRoutingScorers: '--prefill-routing-scorers',
  decodeRoutingScorers: '--decode-routing-scorers',
  ...Object.fromEntries(['prefill', 'decode'].flatMap((pool) => POOL_FIELDS.map(([key, flag]) => [`${pool}.${key}`, `--${pool}-${flag}`]))),
};

/** Config field names inside the config's messages, as flags. */
const FIELD_WORDS = new RegExp(`\\b(${[...Object.keys(FLAG_OF_FIELD).filter((k) => !k.includes('.')), 'numInstances'].join('|')})\\b`, 'g');
const flagWords = (text: string): string => text.replace(FIELD_WORDS, (w) => FLAG_OF_FIELD[w] ?? '--num-instances');

/** The flag that sets the `pd` field at `path` (relative to `pd`), or undefined when no flag does. */
export function pdFlagOf(path: readonly PropertyKey[]): string | undefined {
  const [key, sub] = path;
  if ((key === 'prefill' || key === 'decode') && typeof sub === 'string') return FLAG_OF_FIELD[`${key}.${sub}`];
  return typeof key === 'string' ? FLAG_OF_FIELD[key] : undefined;
}

/**
 * The config's issues about its `pd` block (paths starting with `pd`; others are skipped) as
 * UsageIssues naming the flag. With the block (`pd`), an issue about a whole pool's overrides is
 * reported against each of that pool's flags that was given.
 */
export function pdUsageIssues(issues: readonly core.$ZodIssue[], pd?: PdInput): UsageIssue[] {
  const out: UsageIssue[] = [];
  for (const i of issues) {
    if (i.path[0] !== 'pd') continue;
    const rel = i.path.slice(1);
    // The config's own rules word their messages as "expected ..., found ..."; the rest go through the zod translator.
    const m = /^(?:expected )?(.+), found (.+)$/s.exec(i.message);
    const value = valueAtPath(pd, rel);
    let expected = m?.[1] ?? describeZodExpected(i, value);
    const found = m?.[2] ?? describeFound(value);
    // "... for transferContention": the flag is already named in front of the message.
    const tail = ` for ${formatParamPath(rel.filter((p) => typeof p !== 'symbol'), '')}`;
    if (expected.endsWith(tail)) expected = expected.slice(0, -tail.length);
    const text = { expected: flagWords(expected), found: flagWords(found) };
    const pool = rel.length === 1 && (rel[0] === 'prefill' || rel[0] === 'decode') ? rel[0] : undefined;
    const given = pool !== undefined ? POOL_FIELDS.filter(([k]) => pd?.[pool]?.[k] !== undefined) : [];
    if (given.length > 0) for (const [, flag] of given) out.push({ where: `--${pool}-${flag}`, ...text });
    else out.push({ where: pdFlagOf(rel) ?? `config ${formatParamPath(i.path.filter((p) => typeof p !== 'symbol'), '')}`, ...text });
  }
  return out;
}

/** The issues the config's schema finds with `cfg.pd` (BLIS's topology rules), named by flag. */
export function pdConfigIssues(cfg: SimulationConfigInput): UsageIssue[] {
  if (cfg.pd === undefined) return [];
  const r = SimulationConfigSchema.safeParse(cfg);
  return r.success ? [] : pdUsageIssues(r.error.issues, cfg.pd);
}

/** The `pd` block and the instance count the P/D flags give. */
export interface PdFields {
  /** Undefined when no P/D flag was given. */
  pd?: PdInput;
  /** `--architecture pd` without `--num-instances`: P + D + S. */
  numInstances?: number;
}

const INSTANCE_FLAGS = [
  ['prefillInstances', '--prefill-instances'],
  ['decodeInstances', '--decode-instances'],
  ['prefillDecodeInstances', '--prefill-decode-instances'],
] as const;

/**
 * The P/D part of the config from the flags (`f`, validated, camelCase). Problems the config's
 * schema cannot see go to `issues`: `--architecture` against the instance counts, decider and
 * scorer names (`scorers`: module paths' registered names and every known name), a custom decider
 * (`isModulePath`, loaded separately) without P/D instances.
 */
export function pdFields(
  f: Record<string, unknown>,
  isModulePath: (s: string) => boolean,
  issues: UsageIssue[],
  scorers: { registered: ReadonlyMap<string, string>; known: readonly string[] } = { registered: new Map(), known: listPolicies().scorer },
): PdFields {
  const pd: PdInput = {};
  for (const [key] of INSTANCE_FLAGS) if (f[key] !== undefined) pd[key] = f[key] as number;
  const total = (pd.prefillInstances ?? 0) + (pd.decodeInstances ?? 0) + (pd.prefillDecodeInstances ?? 0);
  const givenCounts = INSTANCE_FLAGS.filter(([key]) => pd[key] !== undefined).map(([key, flag]) => `${flag} ${pd[key]}`);
  if (f.architecture === 'pd' && total === 0)
    issues.push({
      where: '--architecture',
      expected: 'P/D instances beside pd: --prefill-replicas and --decode-replicas (--prefill-instances, --decode-instances), or --prefill-decode-instances',
      found: givenCounts.length > 0 ? givenCounts.join(', ') : 'none',
    });
  if (f.architecture === 'monolithic' && total > 0)
    issues.push({ where: '--architecture', expected: 'pd beside P/D instances (monolithic has none)', found: `monolithic with ${givenCounts.filter((g) => !g.endsWith(' 0')).join(', ')}` });

  const decider = f.pdDecider as string | undefined;
  if (decider !== undefined && isModulePath(decider)) {
    // A custom decider is a runtime object (policy-modules/), not a config setting.
    if (total === 0) issues.push({ where: '--pd-decider', expected: 'P/D instances (--prefill-instances and --decode-instances, or --prefill-decode-instances)', found: 'none' });
  } else if (decider !== undefined) {
    const known = deciderNames();
    if (known.includes(decider)) pd.decider = decider;
    else issues.push({ where: '--pd-decider', expected: `one of ${known.join(', ')}, or an ES module path (./decider.mjs)`, found: describeFound(decider) });
  }
  if (f.encodeInstances !== undefined) pd.encodeInstances = f.encodeInstances as number;
  if (f.encodeDecider !== undefined) pd.encodeDecider = f.encodeDecider as PdInput['encodeDecider'];
  if (f.pdPrefixThreshold !== undefined) pd.prefixThreshold = f.pdPrefixThreshold as number;
  if (f.pdTransferBandwidth !== undefined) pd.transferBandwidthGBps = f.pdTransferBandwidth as number;
  if (f.pdTransferBaseLatency !== undefined) pd.transferBaseLatencyMs = f.pdTransferBaseLatency as number;
  if (f.pdTransferContention === true) pd.transferContention = true;

  for (const pool of ['prefill', 'decode'] as const) {
    const text = f[`${pool}RoutingScorers`] as string | undefined;
    if (text !== undefined) {
      try {
        // Scorer modules are registered under names of their own (policy-modules/policy-setup.ts).
        const list = parseScorerList(withRegisteredScorerNames(text, scorers.registered), scorers.known).map((s) => ({ name: s.name, weight: s.weight }));
        // BLIS: an empty list is no list (the pool keeps the main routing policy).
        if (list.length > 0) pd[`${pool}RoutingScorers`] = list;
      } catch (e) {
        issues.push({ where: `--${pool}-routing-scorers`, ...splitListMessage((e as Error).message, '"name:weight,..." pairs') });
      }
    }
    const overrides: PoolInput = {};
    // BLIS's 0 means "the global setting", as unset does.
    const tp = f[`${pool}Tp`] as number | undefined;
    if (tp !== undefined && tp > 0) overrides.tp = tp;
    const hardware = f[`${pool}Hardware`] as string | undefined;
    if (hardware !== undefined) overrides.hardware = hardware;
    const latencyModel = f[`${pool}LatencyModel`] as PoolInput['latencyModel'];
    if (latencyModel !== undefined) overrides.latencyModel = latencyModel;
    const maxModelLen = f[`${pool}MaxModelLen`] as number | undefined;
    if (maxModelLen !== undefined && maxModelLen > 0) overrides.maxModelLen = maxModelLen;
    if (Object.keys(overrides).length > 0) pd[pool] = overrides;
  }

  if (f.pdPrefixThreshold !== undefined && total > 0 && (decider ?? 'never') !== 'prefix-threshold' && f.quiet !== true)
    process.stderr.write(`blis: warning: --pd-prefix-threshold ignored: it applies to --pd-decider prefix-threshold, not ${decider ?? 'never'}\n`);

  // BLIS warns too: an encode pool that the default decider never uses.
  const encodeInstances = (f.encodeInstances as number | undefined) ?? 0;
  if (encodeInstances > 0 && (f.encodeDecider ?? 'never') === 'never' && f.quiet !== true)
    process.stderr.write(`blis: warning: --encode-instances ${encodeInstances} has no effect with --encode-decider never; set --encode-decider multimodal or always to use the encode pool\n`);

  const out: PdFields = {};
  if (Object.keys(pd).length > 0) out.pd = pd;
  if (f.architecture === 'pd' && f.numInstances === undefined && total > 0) out.numInstances = total;
  return out;
}
