import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { PolicyFactoryContext, PolicyKind } from '@blis/policies';
import { isDecisionTreePath, loadDecisionTreeFactory } from '../inputs/decision-tree-file.js';
import { checkReadableFile } from '../inputs/input-files.js';
import { UsageError } from '../errors/usage-error.js';
import type { PolicyWatchdog } from '../policy-watchdog/index.js';

/**
 * How long a module's import may take under the watchdog, in ms: ten policy decisions' budget,
 * at least 5 s. Generous (its files are read in that time too): it is there for top-level code
 * that never ends.
 */
export function moduleLoadLimitMs(budgetMs: number): number {
  return Math.max(5_000, 10 * budgetMs);
}

/** A policy factory as a module's default export is documented: `(ctx) => policy`. */
export type LoadedFactory = (ctx: PolicyFactoryContext) => unknown;

// One import per file per process: commands that build many runs (capacity, P/D pools, one
// scheduler per instance) reuse the factory rather than re-evaluating the module.
const cache = new Map<string, Promise<LoadedFactory>>();

/**
 * The factory in the file at `absPath` (already resolved): an ES module's default export,
 * checked to be a function, or a decision tree's factory. `where` names the flag or YAML key
 * for errors (`--routing-policy ./x.mjs`, `policy.yaml:4 routing.type (./x.mjs)`).
 */
export function importFactory(kind: PolicyKind, absPath: string, where: string, watchdog?: PolicyWatchdog): Promise<LoadedFactory> {
  const key = `${kind}\0${absPath}`;
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = load(kind, absPath, where, watchdog);
    cache.set(key, hit);
    // A failure is reported once, under the name that asked first; a retry should see it again.
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

async function load(kind: PolicyKind, absPath: string, where: string, watchdog: PolicyWatchdog | undefined): Promise<LoadedFactory> {
  if (!existsSync(absPath))
    throw new UsageError([{ where, expected: isDecisionTreePath(absPath) ? 'an existing decision-tree YAML file' : 'a policy name or an existing ES module path', found: 'no such file' }]);
  // A FIFO or a device would hold the import (and the process's exit) for ever.
  const unreadable = checkReadableFile(where, absPath, isDecisionTreePath(absPath) ? 'decision-tree YAML file' : 'ES module');
  if (unreadable !== undefined) throw new UsageError([{ ...unreadable, where }]);
  if (isDecisionTreePath(absPath)) return await loadDecisionTreeFactory(kind, absPath, where);
  // The loader of user modules is @blis/adapters', loaded only by runs that name a module.
  const { importModule } = await import('@blis/adapters/internal');
  let mod: { default?: unknown };
  try {
    const url = pathToFileURL(absPath).href;
    mod = await (watchdog === undefined ? importModule<{ default?: unknown }>(url) : watchdog.load(where, moduleLoadLimitMs(watchdog.budget), () => importModule<{ default?: unknown }>(url)));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new UsageError([{ where, expected: 'an importable ES module', found: `importing it threw: ${message.split('\n')[0]}` }]);
  }
  const factory = mod.default;
  if (typeof factory !== 'function')
    throw new UsageError([{ where, expected: 'a default export that is a policy factory function, (ctx) => policy', found: factory === undefined ? 'no default export' : typeof factory }]);
  return factory as LoadedFactory;
}
