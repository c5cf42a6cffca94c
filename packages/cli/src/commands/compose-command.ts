import { mixedSloClassIssues, parseYamlInput, readYamlText } from '@blis/workload/internal';
import { describeFound, formatParamPath } from '@blis/policies/internal';
import { MAX_CLOCK_US } from '@blis/engine';
import { composeSpecs, loadWorkloadSpec, parseWorkloadSpec, WorkloadSpecError } from '@blis/workload';
import { COMPOSE_FLAGS } from '../flags/compose-flags.js';
import { parseFlags } from '../flags/flags.js';
import { requireReadable } from '../inputs/input-files.js';
import { requireSpecFileSize } from '../inputs/spec-file-limit.js';
import { UsageError } from '../errors/usage-error.js';

/** One input: validated as `blis run --workload-spec` would read it, then its YAML as written. */
function readInput(path: string): unknown {
  requireReadable('--from', path, 'workload spec file (WorkloadSpec v2 YAML)');
  requireSpecFileSize('--from', path);
  const spec = loadWorkloadSpec(path, { runHorizonUs: MAX_CLOCK_US });
  if (spec.inferencePerf !== undefined)
    throw new UsageError([{ where: `--from ${path}`, expected: 'a spec with clients (compose merges client lists; BLIS would drop an inference_perf section)', found: 'an inference_perf section' }]);
  const read = readYamlText(path, 'workload spec');
  if (!read.ok) throw new WorkloadSpecError(read.issues);
  const parsed = parseYamlInput(read.text, path);
  if (!parsed.ok) throw new WorkloadSpecError(parsed.issues);
  return parsed.yaml.value;
}

/**
 * `blis compose --from a.yaml --from b.yaml`: BLIS's merge of WorkloadSpec files, printed on
 * stdout as BLIS prints it (docs/workloads.md#compose). What the merge leaves out of an input is
 * noted on stderr.
 */
export function runComposeCommand(rawOpts: Record<string, unknown>): void {
  const flags = parseFlags(COMPOSE_FLAGS, rawOpts);
  const paths = (flags.from as string[] | undefined) ?? [];
  if (paths.length === 0) throw new UsageError([{ where: '--from', expected: 'at least one WorkloadSpec file (--from a.yaml --from b.yaml)', found: 'none' }]);
  const inputs = paths.map(readInput);
  const composed = composeSpecs(inputs);
  // BLIS validates what it is about to print; so do we, with the merged spec named as such.
  const mixed = mixedSloClassIssues(composed.spec.clients);
  if (mixed.length > 0) throw new UsageError(mixed.map((i) => ({ where: `the composed spec ${formatParamPath(i.path, '')}`, expected: i.expected, found: i.found })));
  try {
    // The merged object, not the printed text: absent fields stay absent (the text writes Go's zero values).
    parseWorkloadSpec(composed.spec, 'the composed spec', { runHorizonUs: MAX_CLOCK_US });
  } catch (e) {
    if (!(e instanceof WorkloadSpecError)) throw e;
    throw new UsageError(e.issues.map((i) => ({ where: `the composed spec${i.field !== undefined ? ` ${i.field}` : ''}`, expected: i.expected, found: i.found })));
  }
  if (flags.quiet !== true)
    composed.dropped.forEach((keys, i) => {
      if (keys.length > 0)
        process.stderr.write(`blis: note: compose keeps clients, aggregate_rate and the first spec's category; left out of ${paths[i]}: ${keys.map((k) => describeFound(k)).join(', ')} (BLIS writes seed: 0)\n`);
    });
  process.stdout.write(composed.yaml);
}
