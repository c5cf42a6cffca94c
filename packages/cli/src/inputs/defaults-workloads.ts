import { type WorkloadPreset, workloadPreset, workloadPresetNames } from '@blis/latency';
import { describeFound } from '@blis/policies/internal';
import { defaultsPreset, loadBlisDefaults } from './defaults-file.js';
import { UsageError } from '../errors/usage-error.js';

// `blis convert preset --defaults-filepath`: the preset from a BLIS defaults.yaml, the whole file
// checked as run's --defaults-filepath checks it (BLIS's decoder is strict for every command).

/**
 * The preset `name`: from the `workloads:` of the BLIS defaults file at `path` when given, else
 * from the shipped catalogue (BLIS HEAD's defaults.yaml presets). An unknown name lists the known.
 */
export function presetByName(name: string, path: string | undefined): WorkloadPreset {
  if (path === undefined) {
    if (!workloadPresetNames().includes(name)) throw new UsageError([{ where: '--name', expected: `a preset of the catalogue: ${workloadPresetNames().join(', ')}`, found: describeFound(name) }]);
    return workloadPreset(name);
  }
  return defaultsPreset(loadBlisDefaults(path), name, '--name');
}
