import type { CustomPolicyNames, SimulationConfig } from '@blis/cluster';
import { activePolicies } from '@blis/cluster/internal';

// BLIS's `--log` levels (run-flags.ts): results go to stdout whatever the level; the level
// decides what else `blis run` / `blis replay` write on stderr.


/** Levels at which the run's policies are listed before it starts. */
export function logsPolicies(level: string | undefined): boolean {
  return level === 'info' || level === 'debug' || level === 'trace';
}

/** Levels that keep stderr for errors only, as `--quiet` does. */
export function logsErrorsOnly(level: string | undefined): boolean {
  return level === 'error' || level === 'fatal' || level === 'panic';
}

/** One stderr line naming each policy the run uses, with the parameters it was given. */
export function describePolicies(config: SimulationConfig, names: CustomPolicyNames): string {
  const params: Record<string, Record<string, unknown>> = {
    admission: config.admission.params,
    priority: config.priority.params,
    routing: config.routing.params,
    scheduler: config.scheduler.params,
  };
  const parts = Object.entries(activePolicies(config, names)).map(([kind, name]) => {
    const p = params[kind];
    const given = p === undefined ? [] : Object.entries(p);
    return `${kind.replace('_', ' ')} ${name}${given.length > 0 ? ` (${given.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')})` : ''}`;
  });
  return `policies: ${parts.join(', ')}`;
}
