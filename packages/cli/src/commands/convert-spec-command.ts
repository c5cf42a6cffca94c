import { blisSpecYaml, convertInferencePerfFile, convertPreset } from '@blis/workload';
import { presetByName } from '../inputs/defaults-workloads.js';
import { camel } from '../flags/flag-name.js';
import { CONVERT_INFERENCE_PERF_FLAGS, CONVERT_PRESET_FLAGS } from '../flags/convert-spec-flags.js';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { requireReadable } from '../inputs/input-files.js';
import { UsageError } from '../errors/usage-error.js';

/** The flags of a BLIS converter, with its required one present. */
function flagsWith(defs: readonly FlagDef[], raw: Record<string, unknown>, required: string, command: string): Record<string, unknown> {
  const f = parseFlags(defs, raw);
  if (f[camel(required)] === undefined) throw new UsageError([{ where: `--${required}`, expected: `a value (\`blis convert ${command}\` requires it)`, found: 'nothing' }]);
  return f;
}

/** `blis convert preset`: BLIS's one-client spec of a length preset, on stdout. */
export function runConvertPresetCommand(raw: Record<string, unknown>): void {
  const f = flagsWith(CONVERT_PRESET_FLAGS, raw, 'name', 'preset');
  const defaults = f.defaultsFilepath as string | undefined;
  if (defaults !== undefined) requireReadable('--defaults-filepath', defaults, 'BLIS defaults.yaml');
  const preset = presetByName(f.name as string, defaults);
  process.stdout.write(blisSpecYaml(convertPreset(f.name as string, (f.rate as number | undefined) ?? 1, (f.numRequests as number | undefined) ?? 100, preset)));
}

/** `blis convert inference-perf`: an inference_perf: spec expanded into BLIS's clients, on stdout. */
export function runConvertInferencePerfCommand(raw: Record<string, unknown>): void {
  const f = flagsWith(CONVERT_INFERENCE_PERF_FLAGS, raw, 'spec', 'inference-perf');
  requireReadable('--spec', f.spec as string, 'workload spec file');
  process.stdout.write(blisSpecYaml(convertInferencePerfFile(f.spec as string)));
}
