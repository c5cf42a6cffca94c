import { type SimulationConfigInput, parseFitnessWeights, FitnessWeightsError } from '@blis/cluster';
import { knownHardware } from '@blis/latency';
import { latencyKnownModels, latencyResolvesModel } from './catalogue.js';
import { kvTierFields } from './kv-tier-flags.js';
import { loraFields, withLoraScorer } from './lora-flags.js';
import { DEFAULT_MODEL, architectureFor } from './model-architecture.js';
import { checkReadableFile } from './input-files.js';
import { MAX_EXACT_INTEGER, type PolicyBundle, type PolicyOverrides, type PolicyRegistry, defaultPolicyRegistry, listPolicies, parsePolicyBundle, parseScorerList, resolvePolicySpecs, splitListMessage, splitPolicyMessage, describeFound, messageText } from '@blis/policies';
import { type PolicySetup, isModulePath, withRegisteredScorerNames } from './policy-modules/index.js';
import type { BundleModules } from './policy-modules/bundle-modules.js';
import { type ParamFlag, builtinParamIssues, withFlagParams } from './policy-modules/builtin-params.js';
import { autoscaleFields } from './autoscale-flags.js';
import { pdConfigIssues, pdFields } from './pd-flags.js';
import { flowControlConfig } from './flow-control-flags.js';
import { moeFlagFields } from './moe-flags.js';
import { keyText } from '@blis/workload';
import { UsageError, type UsageIssue } from './usage-error.js';
import { goodputFlagConfig } from './goodput-flags.js';
import type { YamlFile } from './yaml-file.js';
import { resetConfigOrigins } from './config-origins.js';
import { saturationAnalysisFromFlags } from './saturation-setup.js';
import { defaultsFileFields } from './defaults-apply.js';

/** Flag values after validation, camelCase. */
export type FlagValues = Record<string, unknown>;

/** `routing.scorers[0].name`, each key as the file's field paths show keys (an excerpt when odd). */
function keyPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${keyText(p)}`)).join('');
}

/**
 * Validates a `--policy-config` file (its module references already taken out and loaded, see
 * policy-modules/); problems name the file, line and key.
 */
export function checkPolicyBundle(b: BundleModules, registry: PolicyRegistry): { bundle: PolicyBundle; file: YamlFile } {
  const { file } = b;
  const r = parsePolicyBundle(b.value, registry);
  if (!r.success) {
    throw new UsageError(
      r.issues.map((i) => {
        // A section that wrote `type:` is named as written.
        const path = i.path.length >= 2 && i.path[1] === 'policy' && b.typeSections.has(String(i.path[0])) ? [i.path[0], 'type', ...i.path.slice(2)] : i.path;
        const pathText = keyPath(path);
        const line = file.lineOf(path);
        const { expected, found } = splitPolicyMessage(i.message, i.path);
        // A key or value of the file can be long or hold control characters: quoted as excerpts.
        // A number YAML could not hold exactly is shown as written (9007199254740993, not ...992).
        const written = file.numberText(path);
        return { where: `${file.path}${line !== undefined ? `:${line}` : ''} ${pathText}`, expected: messageText(expected, 300), found: written !== undefined ? messageText(written, 100) : messageText(found, 100) };
      }),
    );
  }
  return { bundle: r.bundle, file };
}

/**
 * Turns validated flags (and the files they name) into a SimulationConfig input. Cross-field
 * checks (min > max, conflicting workload sources) happen here, all problems reported together.
 */
export function buildConfig(flags: FlagValues, workload: SimulationConfigInput['workload'], setup: PolicySetup): SimulationConfigInput {
  const issues: UsageIssue[] = [];
  resetConfigOrigins();
  // --defaults-filepath: unset --hardware, --tp, --model-config, --hardware-config from the file.
  const fromDefaults = defaultsFileFields(flags, issues);
  const f = fromDefaults.flags as Record<string, never>;

  for (const which of ['prompt', 'output'] as const) {
    const lo = f[`${which}TokensMin`] as number | undefined;
    const hi = f[`${which}TokensMax`] as number | undefined;
    if (lo !== undefined && hi !== undefined && lo > hi)
      issues.push({ where: `--${which}-tokens-min`, expected: `at most --${which}-tokens-max (${hi})`, found: String(lo) });
  }
  if (typeof f.model === 'string' && f.alphaCoeffs === undefined && f.betaCoeffs === undefined && f.modelConfig === undefined) {
    const known = latencyKnownModels();
    if (!known.some((m) => m.toLowerCase() === (f.model as string).toLowerCase()) && !latencyResolvesModel(f.model as string))
      issues.push({ where: '--model', expected: `a known model (${known.join(', ')})`, found: describeFound(f.model) });
  }
  const files: [string, unknown, string, boolean][] = [
    ['--model-config', f.modelConfig, 'model config (config.json or its folder)', true],
    ['--hardware-config', f.hardwareConfig, 'hardware_config.json', false],
  ];
  const unreadable = new Set<string>();
  for (const [flag, path, what, dirOk] of files) {
    if (typeof path !== 'string') continue;
    const issue = checkReadableFile(flag, path, what, dirOk);
    if (issue !== undefined) {
      issues.push(issue);
      unreadable.add(flag);
    }
  }
  for (const [flag, hardware] of [['--hardware', f.hardware], ['--prefill-hardware', f.prefillHardware], ['--decode-hardware', f.decodeHardware]] as const) {
    if (typeof hardware !== 'string' || f.hardwareConfig !== undefined) continue;
    const gpus = knownHardware();
    if (!gpus.some((g) => g.toLowerCase() === (hardware as string).toLowerCase()))
      issues.push({ where: (flag === '--hardware' ? fromDefaults.from.hardware : undefined) ?? flag, expected: `one of ${gpus.join(', ')} (or a GPU from --hardware-config)`, found: describeFound(hardware) });
  }
  // --prefill-tp / --decode-tp 0 mean --tp (BLIS's default).
  for (const [flag, tp] of [['--tp', f.tp], ['--prefill-tp', f.prefillTp], ['--decode-tp', f.decodeTp]] as const) {
    if (typeof tp !== 'number' || tp === 0 || unreadable.has('--model-config')) continue;
    // vLLM shards attention heads across GPUs: it refuses a TP that does not divide them.
    const model = (f.model as string | undefined) ?? DEFAULT_MODEL;
    const arch = architectureFor(model, f.modelConfig as string | undefined);
    if (arch !== undefined && arch.heads % tp !== 0) {
      const divisors = Array.from({ length: arch.heads }, (_, i) => i + 1).filter((d) => arch.heads % d === 0);
      issues.push({
        where: (flag === '--tp' ? fromDefaults.from.tp : undefined) ?? flag,
        expected: `a divisor of the ${arch.heads} attention heads of ${f.modelConfig ?? model} (${divisors.join(', ')})`,
        found: String(tp),
      });
    }
  }
  if ((f.alphaCoeffs === undefined) !== (f.betaCoeffs === undefined) && f.latencyModel !== 'roofline' && f.latencyModel !== 'trained-physics' && f.model === undefined) {
    // Both or neither without a model: a half-specified blackbox model cannot be completed.
    const [missing, given] = f.alphaCoeffs === undefined ? ['--alpha-coeffs', '--beta-coeffs'] : ['--beta-coeffs', '--alpha-coeffs'];
    issues.push({ where: missing, expected: `to be given with ${given} (or --model, whose trained coefficients fill in the other)`, found: `only ${given}` });
  }

  checkCoefficientFlags(f.latencyModel as string | undefined, f.alphaCoeffs as number[] | undefined, f.betaCoeffs as number[] | undefined, issues);
  // A vLLM version picks a row of blackbox coefficients: beside another model it would do nothing.
  if (f.vllmVersion !== undefined && (f.latencyModel === 'roofline' || f.latencyModel === 'trained-physics'))
    issues.push({ where: '--vllm-version', expected: `no --vllm-version with --latency-model ${f.latencyModel} (a vLLM version picks blackbox coefficients)`, found: describeFound(f.vllmVersion) });

  const goodput = goodputFlagConfig(f, issues);
  let fitnessWeights: Record<string, number> | undefined;
  if (typeof f.fitnessWeights === 'string') {
    try {
      fitnessWeights = parseFitnessWeights(f.fitnessWeights) as Record<string, number>;
    } catch (e) {
      if (!(e instanceof FitnessWeightsError)) throw e;
      issues.push({ where: '--fitness-weights', ...splitListMessage(e.message, 'metric:weight pairs') });
    }
  }

  // Policies: the YAML bundle first, flags on top (BLIS: flags override the file).
  let bundle: PolicyBundle = {};
  let bundleFile: YamlFile | undefined;
  let bundleOk = true;
  const registry = setup.registry ?? defaultPolicyRegistry;
  if (setup.bundle !== undefined) {
    if (f.quiet !== true) for (const w of setup.bundle.warnings) process.stderr.write(`blis: warning: ${w}\n`);
    try {
      ({ bundle, file: bundleFile } = checkPolicyBundle(setup.bundle, registry));
    } catch (e) {
      bundleOk = false;
      if (e instanceof UsageError) issues.push(...e.issues);
      else throw e;
    }
  }
  const overrides: { -readonly [K in keyof PolicyOverrides]: PolicyOverrides[K] } = {};
  const named = (v: unknown) => (typeof v === 'string' && !isModulePath(v) ? v : undefined);
  const admissionParams: Record<string, unknown> = {};
  if (f.tokenBucketCapacity !== undefined) admissionParams.capacity = f.tokenBucketCapacity;
  if (f.tokenBucketRefillRate !== undefined) admissionParams.refillRate = f.tokenBucketRefillRate;
  if (f.admissionPolicy !== undefined || Object.keys(admissionParams).length > 0)
    overrides.admission = { name: named(f.admissionPolicy), params: Object.keys(admissionParams).length > 0 ? admissionParams : undefined };
  if (f.priorityPolicy !== undefined) overrides.priority = { name: named(f.priorityPolicy) };
  if (f.scheduler !== undefined) overrides.scheduler = { name: named(f.scheduler) };
  if (f.preemptionPolicy !== undefined) overrides.preemption = f.preemptionPolicy as 'fcfs' | 'priority';
  let scorers: { name: string; weight: number }[] | undefined;
  if (typeof f.routingScorers === 'string') {
    try {
      // Module paths are registered under names of their own (policy-modules/policy-setup.ts).
      const text = withRegisteredScorerNames(f.routingScorers as string, setup.scorerNames);
      scorers = parseScorerList(text, registry.names('scorer')).map((s) => ({ name: s.name, weight: s.weight }));
    } catch (e) {
      issues.push({ where: '--routing-scorers', ...splitListMessage((e as Error).message, '"name:weight,..." pairs') });
    }
  }
  if (f.routingPolicy !== undefined || scorers !== undefined)
    overrides.routing = { name: named(f.routingPolicy), params: scorers !== undefined ? { scorers } : undefined };

  const specs = resolvePolicySpecs(bundle, withFlagParams(overrides, setup));
  // Settings that apply to no selected policy do not change the run; say so rather than
  // silently dropping them (BLIS does), on stderr so stdout stays the result.
  if (f.quiet !== true) for (const w of specs.warnings) process.stderr.write(`blis: warning: ${w}\n`);
  const listing = listPolicies();
  for (const [flag, kind, value] of [
    ['--admission-policy', 'admission', specs.admission.name],
    ['--priority-policy', 'priority', specs.priority.name],
    ['--routing-policy', 'routing', specs.routing.name],
    ['--scheduler', 'scheduler', specs.scheduler.name],
  ] as const) {
    const given = f[camelOf(flag)] as string | undefined;
    if (given !== undefined && isModulePath(given)) continue;
    if (!listing[kind].includes(value)) issues.push({ where: flag, expected: `one of ${listing[kind].join(', ')}`, found: describeFound(value) });
  }
  const kvTiers = kvTierFields(f, workload, !unreadable.has('--model-config'), issues, fromDefaults.file !== undefined ? { source: fromDefaults.file.path, classes: fromDefaults.file.devices } : undefined);
  const moe = moeFlagFields(f, !unreadable.has('--model-config'), issues);
  const lora = loraFields(f, issues, fromDefaults.loraDefaults);
  const pd = pdFields(f, isModulePath, issues, { registered: setup.scorerNames, known: registry.names('scorer') });
  // A file that failed to load is reported already; its sections are not checked against the flags.
  const autoscale = bundleOk ? autoscaleFields(f, bundle, bundleFile, isModulePath, issues) : {};
  if (issues.length > 0) throw new UsageError(issues);

  const routingParams = { ...specs.routing.params };
  // BLIS ignores --routing-scorers, with a warning, under a router that takes no scorers (its
  // docs give `--routing-scorers "vllm-dp:1"` beside the default round-robin): so do we, once
  // the scorers have been checked.
  const scorersIgnored = scorers !== undefined && specs.routing.name !== 'weighted' && setup.modules.routing === undefined && registry.has('routing', specs.routing.name);
  if (scorersIgnored) {
    delete routingParams.scorers;
    if (f.quiet !== true) process.stderr.write(`blis: warning: --routing-scorers has no effect with routing policy "${specs.routing.name}" (it applies to --routing-policy weighted)\n`);
  }
  const routingScorers = withLoraScorer(routingParams.scorers as { name: string; weight: number }[] | undefined, f.loraScorerWeight as number | undefined, specs.routing.name, f.quiet === true, issues);
  delete routingParams.scorers;
  if (issues.length > 0) throw new UsageError(issues);

  const withParams = (params: Record<string, unknown> | undefined, extra: Record<string, unknown> | undefined) => (extra === undefined ? params : { ...params, ...extra });
  const modules = setup.modules;
  const cfg: SimulationConfigInput = {
    seed: f.seed,
    horizonUs: f.horizon,
    numInstances: f.numInstances ?? pd.numInstances,
    model: f.model,
    hardware: f.hardware,
    tp: f.tp,
    ...moe,
    latencyModel: f.latencyModel,
    alphaCoeffs: f.alphaCoeffs,
    betaCoeffs: f.betaCoeffs,
    vllmVersion: f.vllmVersion,
    ...(fromDefaults.trainedPhysicsCoefficients !== undefined ? { trainedPhysicsCoefficients: fromDefaults.trainedPhysicsCoefficients } : {}),
    modelConfigPath: f.modelConfig,
    hardwareConfigPath: f.hardwareConfig,
    totalKVBlocks: f.totalKvBlocks,
    gpuMemoryUtilization: f.gpuMemoryUtilization,
    blockSizeTokens: f.blockSizeInTokens,
    maxNumSeqs: f.maxNumSeqs,
    maxNumBatchedTokens: f.maxNumBatchedTokens,
    longPrefillTokenThreshold: f.longPrefillTokenThreshold,
    prefixHitPrefillStart: f.prefixHitPrefillStart as 'cached' | 'zero' | undefined,
    maxModelLen: f.maxModelLen,
    ...kvTiers,
    lora,
    admission: { policy: specs.admission.name, params: { ...specs.admission.params } },
    priority: { policy: specs.priority.name, params: { ...specs.priority.params } },
    routing: { policy: specs.routing.name, scorers: routingScorers, params: routingParams },
    scheduler: { policy: specs.scheduler.name, params: modules.scheduler === undefined ? { ...setup.flagParams.byKind.scheduler } : {} },
    preemptionPolicy: specs.preemption,
    admissionLatencyUs: f.admissionLatency,
    routingLatencyUs: f.routingLatency,
    snapshotRefreshIntervalUs: f.snapshotRefreshInterval,
    cacheSignalDelayUs: f.cacheSignalDelay,
    flowControl: flowControlConfig(f),
    workload,
    ...goodput,
    fitnessWeights,
    trace: {
      level: f.traceLevel,
      outputPath: f.decisionTrace,
      counterfactualK: f.counterfactualK,
      summarize: f.summarizeTrace === true,
      summaryMaxTokens: f.summaryMaxTokens,
      summaryStrategy: f.summaryStrategy,
      tailRatioThreshold: f.tailRatioThreshold,
    },
    checkInvariants: f.checkInvariants === true,
    includeRequests: ['resultsPath', 'report', 'metricsPath', 'traceOutput'].some((k) => typeof f[k] === 'string'),
    // A report draws the instances over time: --report samples every second unless told otherwise.
    timeseriesIntervalUs: timeseriesIntervalUs((f.timeseriesInterval as number | undefined) ?? (typeof f.report === 'string' ? REPORT_TIMESERIES_INTERVAL_MS : undefined)),
    pd: pd.pd === undefined || modules.decider !== undefined ? pd.pd : { ...pd.pd, deciderParams: withParams(pd.pd.deciderParams, setup.flagParams.byKind.decider) },
    autoscaling:
      autoscale.autoscaling === undefined || modules.autoscaler !== undefined
        ? autoscale.autoscaling
        : { ...autoscale.autoscaling, params: withParams(autoscale.autoscaling.params, setup.flagParams.byKind.autoscaler) },
    nodePools: autoscale.nodePools,
    lifecycle: autoscale.lifecycle,
    saturationAnalysis: saturationAnalysisFromFlags(f),
  };
  const out = dropUndefined(cfg) as SimulationConfigInput;
  // BLIS's P/D topology rules live in the config's schema: check them now, named by flag.
  const pdIssues = pdConfigIssues(out);
  if (pdIssues.length > 0) throw new UsageError(pdIssues);
  // Built-in policies check the params --policy-param and --routing-scorers gave them now, named by the flag.
  const paramIssues = builtinParamIssues(out, setup, registry, paramFlags(flags).filter((p) => !(scorersIgnored && p.flag === '--routing-scorers')));
  if (paramIssues.length > 0) throw new UsageError(paramIssues);
  return out;
}

/** The policy parameters set by flags of their own, so that a policy's refusal names the flag. */
function paramFlags(flags: FlagValues): ParamFlag[] {
  const out: ParamFlag[] = [];
  const add = (flag: string, kind: ParamFlag['kind'], param: string, takenBy: string) => {
    const v = flags[camelOf(flag)];
    if (v !== undefined) out.push({ kind, param, flag, text: String(v), takenBy });
  };
  add('--routing-scorers', 'routing', 'scorers', 'a scorer-based router such as --routing-policy weighted');
  add('--token-bucket-capacity', 'admission', 'capacity', '--admission-policy token-bucket');
  add('--token-bucket-refill-rate', 'admission', 'refillRate', '--admission-policy token-bucket');
  return out;
}

function camelOf(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Removes undefined fields recursively so zod defaults apply. */
function dropUndefined(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropUndefined);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = dropUndefined(x);
    return out;
  }
  return v;
}

/** Coefficient counts and signs depend on the latency model: trained-physics takes 7 to 11 betas, all ≥ 0. */
function checkCoefficientFlags(latencyModel: string | undefined, alpha: number[] | undefined, beta: number[] | undefined, issues: UsageIssue[]): void {
  if (latencyModel === 'trained-physics') {
    for (const [flag, values] of [['--alpha-coeffs', alpha], ['--beta-coeffs', beta]] as const) {
      const bad = values?.find((v) => v < 0);
      if (bad !== undefined) issues.push({ where: flag, expected: 'non-negative trained-physics coefficients', found: String(bad) });
    }
    if (beta !== undefined && (beta.length < 7 || beta.length > 11))
      issues.push({ where: '--beta-coeffs', expected: '7 to 11 comma-separated numbers for --latency-model trained-physics', found: `${beta.length} numbers` });
    return;
  }
  if (beta !== undefined && beta.length !== 3)
    issues.push({ where: '--beta-coeffs', expected: `three comma-separated numbers (e.g. "1000,2.5,0")${latencyModel === undefined ? ', or 7 to 11 with --latency-model trained-physics' : ''}`, found: `${beta.length} numbers` });
}

/** The sampling interval `--report` implies when `--timeseries-interval` is not given. */
export const REPORT_TIMESERIES_INTERVAL_MS = 1000;

/**
 * `--timeseries-interval` in whole µs; a zero or sub-µs interval would sample forever, and one
 * beyond 2^53 µs (285 years) is no longer a whole number of µs.
 */
function timeseriesIntervalUs(ms: number | undefined): number | undefined {
  if (ms === undefined) return undefined;
  const us = Math.round(ms * 1000);
  if (us > MAX_EXACT_INTEGER)
    throw new UsageError([{ where: '--timeseries-interval', expected: `an interval of at most ${MAX_EXACT_INTEGER} µs`, found: `${describeFound(String(ms))} ms` }]);
  if (us < 1) throw new UsageError([{ where: '--timeseries-interval', expected: 'an interval of at least 1µs (e.g. "1000" ms or "1s")', found: `${describeFound(String(ms))} ms` }]);
  return us;
}
