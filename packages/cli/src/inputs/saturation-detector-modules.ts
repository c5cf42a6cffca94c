import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type PostHocSaturationDetector, SATURATION_LEVELS, type SaturationEvent, type SaturationVerdict } from '@blis/policies';
import { describeFound } from '@blis/policies/internal';
import { SATURATION_DETECTOR_NAMES } from '@blis/trace';
import { checkReadableFile } from './input-files.js';
import { UsageError } from '../errors/usage-error.js';

/** A detector module's default export: a function that makes a fresh detector. */
type DetectorFactory = () => unknown;

const METHODS = ['observe', 'detect', 'reset'] as const;

/** `--detectors <path>`: what is wrong with the detector a module made, or undefined. */
function shapeProblem(d: unknown): string | undefined {
  if (d === null || typeof d !== 'object') return describeFound(d);
  const o = d as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name === '') return `an object whose name is ${describeFound(o.name)}`;
  const missing = METHODS.filter((m) => typeof o[m] !== 'function');
  return missing.length > 0 ? `an object without ${missing.join(', ')}()` : undefined;
}

/** What is wrong with a verdict, or undefined: BLIS's three levels, finite numbers, numeric signals. */
function verdictProblem(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') return describeFound(v);
  const o = v as Record<string, unknown>;
  if (!(SATURATION_LEVELS as readonly unknown[]).includes(o.level)) return `level ${describeFound(o.level)}`;
  for (const k of ['score', 'confidence'] as const) if (typeof o[k] !== 'number' || !Number.isFinite(o[k])) return `${k} ${describeFound(o[k])}`;
  if (o.signals === null || typeof o.signals !== 'object') return `signals ${describeFound(o.signals)}`;
  for (const [k, x] of Object.entries(o.signals)) if (typeof x !== 'number' || !Number.isFinite(x)) return `signal ${k} ${describeFound(x)}`;
  return undefined;
}

/**
 * A module's detector with its contract enforced: a throw, or a verdict outside BLIS's form
 * (which the report could not write), ends the run as bad input naming the module.
 */
class CheckedDetector implements PostHocSaturationDetector {
  readonly name: string;
  constructor(
    private readonly inner: PostHocSaturationDetector,
    private readonly where: string,
  ) {
    this.name = inner.name;
  }

  private fail(expected: string, found: string): never {
    throw new UsageError([{ where: this.where, expected, found }]);
  }

  private call<T>(method: string, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return this.fail(`a detector whose ${method}() returns`, `${method}() threw: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    }
  }

  observe(event: SaturationEvent): void {
    this.call('observe', () => this.inner.observe(event));
  }

  detect(): SaturationVerdict {
    const v = this.call('detect', () => this.inner.detect());
    const problem = verdictProblem(v);
    if (problem !== undefined) this.fail(`detect() to return { level: ${SATURATION_LEVELS.join(' | ')}, score, confidence (finite numbers), signals (finite numbers) }`, problem);
    return v;
  }

  reset(): void {
    this.call('reset', () => this.inner.reset());
  }
}

/**
 * Loads the detector modules --detectors names (ES modules whose default export makes a
 * `PostHocSaturationDetector`), checks each makes one with a name of its own, and returns a
 * factory per module for the run.
 */
export async function loadDetectorModules(paths: readonly string[]): Promise<(() => PostHocSaturationDetector)[]> {
  const names = new Set<string>(SATURATION_DETECTOR_NAMES);
  const out: (() => PostHocSaturationDetector)[] = [];
  for (const path of paths) {
    const where = `--detectors ${path}`;
    if (!existsSync(path)) throw new UsageError([{ where, expected: 'a detector name or an existing ES module path', found: 'no such file' }]);
    const unreadable = checkReadableFile(where, path, 'ES module');
    if (unreadable !== undefined) throw new UsageError([{ ...unreadable, where }]);
    let mod: { default?: unknown };
    try {
      // @blis/adapters' module loader, loaded only by runs that name a detector module.
      const { importModule } = await import('@blis/adapters/internal');
      mod = await importModule<{ default?: unknown }>(pathToFileURL(resolve(path)).href);
    } catch (e) {
      throw new UsageError([{ where, expected: 'an importable ES module', found: `importing it threw: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}` }]);
    }
    const factory = mod.default;
    if (typeof factory !== 'function')
      throw new UsageError([{ where, expected: 'a default export that makes a detector, () => PostHocSaturationDetector', found: factory === undefined ? 'no default export' : typeof factory }]);
    const make = () => {
      let d: unknown;
      try {
        d = (factory as DetectorFactory)();
      } catch (e) {
        throw new UsageError([{ where, expected: 'a factory that makes a detector', found: `it threw: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}` }]);
      }
      const problem = shapeProblem(d);
      if (problem !== undefined) throw new UsageError([{ where, expected: 'a detector: { name, observe(event), detect(), reset() }', found: problem }]);
      return new CheckedDetector(d as PostHocSaturationDetector, where);
    };
    const name = make().name;
    if (names.has(name)) throw new UsageError([{ where, expected: 'a detector named apart from the built-in ones and the other modules (labels are keyed by name)', found: `the name ${describeFound(name)}` }]);
    names.add(name);
    out.push(make);
  }
  return out;
}
