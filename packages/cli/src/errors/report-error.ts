import { CONFIG_REFUSALS } from '@blis/adapters/internal';
import { describeFound, describeZodExpected, formatParamPath } from '@blis/policies/internal';
import type { core } from 'zod';
import type { RunLimitError } from '@blis/cluster';
import { runLimitUsageIssues } from '../config/run-limit-issues.js';
import { pdUsageIssues } from '../config/pd-flags.js';
import { UsageError, formatIssue } from './usage-error.js';

/** Error classes (by name) that mean "bad input": their messages are for the user, exit code 2. */
const INPUT_ERRORS: ReadonlySet<string> = new Set(['UsageError', 'PolicyError', ...CONFIG_REFUSALS]);

/**
 * Endings that are neither bad input nor our bugs, by error name, with their exit codes: a queued
 * sweep whose jobs failed (the candidates' fault, reported per job), and one stopped by Ctrl-C
 * (its jobs run on; 130 as for any interrupted command).
 */
const OUTCOMES: ReadonlyMap<string, number> = new Map([
  ['QueuedSweepFailedError', 1],
  // `blis calibrate --fail-on-tolerance`: the report is written, the grade is below the bar.
  ['CalibrationToleranceError', 1],
  // `blis worker` stopped with jobs still held past --stop-timeout.
  ['JobsAbandonedError', 1],
  ['QueuedSweepStoppedError', 130],
  ['ObserveInterruptedError', 130],
]);

/** Prints an error on stderr and returns the exit code: 2 for bad input, 1 for our own bugs. */
export function reportError(e: unknown): number {
  if (e instanceof UsageError) {
    for (const i of e.issues) process.stderr.write(`blis: ${formatIssue(i)}\n`);
    return 2;
  }
  const err = e as Error;
  const outcome = err !== null && typeof err === 'object' ? OUTCOMES.get(err.name) : undefined;
  if (outcome !== undefined) {
    for (const line of err.message.split('\n')) process.stderr.write(`blis: ${line}\n`);
    return outcome;
  }
  if (err !== null && typeof err === 'object' && INPUT_ERRORS.has(err.name)) {
    if (err.name === 'RunLimitError') {
      // A limit names a config field: say the flag (or the spec's field) it came from.
      for (const i of runLimitUsageIssues((err as RunLimitError).issues)) process.stderr.write(`blis: ${formatIssue(i)}\n`);
    } else if (err.name === 'ZodError') {
      const issues = (err as unknown as { issues: (core.$ZodIssue & { input?: unknown })[] }).issues;
      // The P/D block is set by flags only: name the flag (buildConfig checks it first, so this is a fallback).
      for (const i of issues)
        if (i.path[0] === 'pd') for (const u of pdUsageIssues([i])) process.stderr.write(`blis: ${formatIssue(u)}\n`);
        else {
          // A config the flags built but the schema refused (a flag check missing): plain words, and the value when zod kept it.
          const found = 'input' in i ? describeFound(i.input) : 'a value outside that';
          process.stderr.write(`blis: ${formatIssue({ where: `config ${formatParamPath(i.path.filter((p) => typeof p !== 'symbol'), '') || '(root)'}`, expected: describeZodExpected(i, i.input), found })}\n`);
        }
    } else {
      for (const line of err.message.split('\n')) process.stderr.write(`blis: ${line}\n`);
    }
    return 2;
  }
  process.stderr.write(`blis: internal error: ${err?.stack ?? String(e)}\n`);
  return 1;
}
