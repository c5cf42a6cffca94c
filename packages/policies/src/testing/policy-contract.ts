import fc from 'fast-check';
import { type PolicyKind, policyKindLabel } from '../errors.js';
import { policyContext } from '../factory-context.js';
import type { PolicyFactoryByKind } from '../registry.js';
import { seededRandomSource } from '../seeded-random.js';

export type { PolicyFactoryByKind };
import { type AnyPolicy, buildSteps, checkMetrics, driveStep, PolicyThrew, type StepInputs } from './contract-drivers.js';
import { type ContractScenario, contractScenarioArb } from './contract-scenario.js';
import { fingerprint, ViewGuard } from './read-only-views.js';


/**
 * What the harness checks, each as its own fast-check property:
 * - `valid-decisions`: every decision is within its kind's contract (instance index in range
 *   unless rejected, finite scores, priorities, deltas and metrics, booleans where booleans are
 *   due, schedulers' compare an order) and no method throws;
 * - `no-input-mutation`: no write to any view (request, router state, snapshots, KV views,
 *   scheduler entries, autoscaler context), nor any change to their data;
 * - `deterministic`: two policies built from the same context (same params, same seed of their
 *   random stream) decide the same on the same sequence;
 * - `no-output-length`: no read of a request field RequestView does not declare (an output
 *   length, INV-9).
 */
export type ContractProperty = 'valid-decisions' | 'no-input-mutation' | 'deterministic' | 'no-output-length';

/** Every {@link ContractProperty}, in the order they are checked. */
export const CONTRACT_PROPERTIES: readonly ContractProperty[] = Object.freeze(['valid-decisions', 'no-input-mutation', 'deterministic', 'no-output-length']);

/** Options of {@link checkPolicyContract}. */
export interface ContractOptions {
  /** Generated runs per property. Default 100. */
  numRuns?: number;
  /** fast-check seed (to replay a failure); default: fast-check picks one and reports it. */
  seed?: number;
  /** fast-check path of a failure to replay directly (with `seed`). */
  path?: string;
  /** Instances per run. Default 1..8. */
  instances?: { min?: number; max?: number };
  /** Most decisions per run. Default 12. */
  maxSteps?: number;
  /** `params` of the factory context. Default `{}`. */
  params?: Readonly<Record<string, unknown>>;
  /** KV block size of the factory context. Default 16. */
  blockSizeTokens?: number;
  /** Which properties to check. Default all ({@link CONTRACT_PROPERTIES}). */
  properties?: readonly ContractProperty[];
  /** Where a failing report is printed (with fast-check's seed). Default `console.error`; `false` prints nothing. */
  print?: ((text: string) => void) | false;
}

/** One property that failed, with what fast-check needs to replay it. */
export interface ContractFailure {
  readonly property: ContractProperty;
  /** fast-check's seed: pass it back as `options.seed` (with `path`) to replay. */
  readonly seed: number;
  /** fast-check's counterexample path. */
  readonly path: string | undefined;
  /** The shrunk run: instances, the seed of the policy's random stream, and the steps (plain data). */
  readonly counterexample: ContractScenario | undefined;
  /** What went wrong, naming the policy, the method and the decision. */
  readonly message: string;
}

/** The outcome of {@link checkPolicyContract}. */
export interface ContractReport {
  readonly ok: boolean;
  readonly kind: PolicyKind;
  /** The `name` the policy reports (or the factory's name when building it failed). */
  readonly policyName: string;
  readonly numRuns: number;
  readonly failures: readonly ContractFailure[];
}

/** A contract breach found in a run (what fast-check reports as the property's failure). */
class ContractBreach extends Error {
  override readonly name = 'ContractBreach';
}

function build<K extends PolicyKind>(factory: PolicyFactoryByKind[K], s: ContractScenario, o: ContractOptions): AnyPolicy {
  const ctx = policyContext({ numInstances: s.instances, params: o.params ?? {}, random: seededRandomSource(s.seed), blockSizeTokens: o.blockSizeTokens ?? 16 });
  return (factory as (c: typeof ctx) => AnyPolicy)(ctx);
}

/** The step's inputs wrapped by `guard`, and a fingerprint of the raw ones. */
function guarded(x: StepInputs, guard: ViewGuard): StepInputs {
  return {
    request: guard.request(x.request),
    state: guard.view(x.state, 'state'),
    autoscale: guard.view(x.autoscale, 'context'),
    schedulerContext: guard.view(x.schedulerContext, 'schedulerContext'),
    previous: x.previous === undefined ? undefined : guard.view(x.previous, 'a'),
    current: guard.view(x.current, 'b'),
    pick: x.pick,
  };
}
const rawFingerprint = (x: StepInputs) => fingerprint([x.request, x.state, x.autoscale, x.schedulerContext, x.previous, x.current]);

function runProperty<K extends PolicyKind>(property: ContractProperty, kind: K, factory: PolicyFactoryByKind[K], o: ContractOptions, s: ContractScenario): void {
  const label = (p: AnyPolicy) => `${policyKindLabel(kind)} "${p?.name ?? factory.name}"`;
  const policy = build(factory, s, o);
  const steps = buildSteps(s);
  if (property === 'valid-decisions') {
    try {
      for (const x of steps) {
        const { problems } = driveStep(kind, policy, x);
        if (problems.length > 0) throw new ContractBreach(`${label(policy)}: ${problems[0]}`);
      }
      const bad = checkMetrics(policy);
      if (bad.length > 0) throw new ContractBreach(`${label(policy)}: ${bad[0]}`);
    } catch (e) {
      if (e instanceof PolicyThrew) throw new ContractBreach(`${label(policy)}: ${e.message}`);
      throw e;
    }
    return;
  }
  if (property === 'deterministic') {
    const twin = build(factory, s, o);
    const twinSteps = buildSteps(s);
    for (let i = 0; i < steps.length; i++) {
      let a: string;
      let b: string;
      try {
        a = fingerprint(driveStep(kind, policy, steps[i]).decision);
        b = fingerprint(driveStep(kind, twin, twinSteps[i]).decision);
      } catch (e) {
        if (e instanceof PolicyThrew) return; // reported by valid-decisions
        throw e;
      }
      if (a !== b) throw new ContractBreach(`${label(policy)}: two instances built from the same context decided differently at step ${i} (request ${i}): ${a} vs ${b}`);
    }
    return;
  }
  const kindOfBreach = property === 'no-input-mutation' ? 'write' : 'hidden-read';
  for (const x of steps) {
    const guard = new ViewGuard();
    const before = rawFingerprint(x);
    try {
      driveStep(kind, policy, guarded(x, guard));
    } catch (e) {
      if (e instanceof PolicyThrew) return; // reported by valid-decisions
      throw e;
    }
    const breach = guard.breaches.find((b) => b.kind === kindOfBreach);
    if (breach !== undefined)
      throw new ContractBreach(
        kindOfBreach === 'write'
          ? `${label(policy)}: wrote ${breach.path} while deciding request ${x.request.index}; views passed to policies are read-only`
          : `${label(policy)}: read ${breach.path} while deciding request ${x.request.index}; a RequestView has no such field (a policy never sees the output length, INV-9)`,
      );
    if (property === 'no-input-mutation' && rawFingerprint(x) !== before)
      throw new ContractBreach(`${label(policy)}: changed its inputs while deciding request ${x.request.index}; views passed to policies are read-only`);
  }
}

/**
 * Runs a policy factory over generated states and checks its contract (see
 * {@link ContractProperty}); works for all seven kinds. Each property is a fast-check property
 * of its own, so each failure comes with its own seed, path and shrunk counterexample. Never
 * throws for a misbehaving policy: the report says what failed (and is printed, see
 * {@link ContractOptions.print}).
 *
 * @example
 * const report = checkPolicyContract('routing', (ctx) => createMyRouter(ctx), { numRuns: 200 });
 * if (!report.ok) console.log(report.failures[0].message);
 */
export function checkPolicyContract<K extends PolicyKind>(kind: K, factory: PolicyFactoryByKind[K], options: ContractOptions = {}): ContractReport {
  const numRuns = options.numRuns ?? 100;
  const arb = contractScenarioArb({ minInstances: options.instances?.min, maxInstances: options.instances?.max, maxSteps: options.maxSteps });
  const failures: ContractFailure[] = [];
  for (const property of options.properties ?? CONTRACT_PROPERTIES) {
    const details = fc.check(
      fc.property(arb, (s) => runProperty(property, kind, factory, options, s)),
      { numRuns, ...(options.seed !== undefined ? { seed: options.seed } : {}), ...(options.path !== undefined ? { path: options.path } : {}) },
    );
    if (details.failed) {
      const error = details.errorInstance;
      failures.push({
        property,
        seed: details.seed,
        path: details.counterexamplePath ?? undefined,
        counterexample: details.counterexample?.[0],
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  let policyName = factory.name || '(anonymous factory)';
  try {
    policyName = build(factory, { instances: options.instances?.min ?? 1, seed: 0, steps: [] }, options).name ?? policyName;
  } catch {
    // Reported by valid-decisions when the factory throws on generated contexts too.
  }
  const report: ContractReport = { ok: failures.length === 0, kind, policyName, numRuns, failures };
  if (!report.ok && options.print !== false) (options.print ?? console.error)(formatContractReport(report));
  return report;
}

/** A report as text: one paragraph per failed property, with the seed and path to replay it. */
export function formatContractReport(report: ContractReport): string {
  if (report.ok) return `${policyKindLabel(report.kind)} "${report.policyName}": contract holds (${report.numRuns} runs per property)`;
  return [
    `${policyKindLabel(report.kind)} "${report.policyName}" breaks its contract:`,
    ...report.failures.map(
      (f) =>
        `- ${f.property}: ${f.message}\n  replay with { seed: ${f.seed}, path: ${JSON.stringify(f.path ?? '')} }\n  counterexample: ${fc.stringify(f.counterexample).slice(0, 2000)}`,
    ),
  ].join('\n');
}

/** {@link checkPolicyContract}, throwing an Error with the formatted report when anything fails (for test runners). */
export function assertPolicyContract<K extends PolicyKind>(kind: K, factory: PolicyFactoryByKind[K], options: ContractOptions = {}): void {
  const report = checkPolicyContract(kind, factory, { ...options, print: false });
  if (!report.ok) throw new Error(formatContractReport(report));
}
