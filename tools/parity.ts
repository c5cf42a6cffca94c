/**
 * `pnpm parity`: replays the Go BLIS reference runs (azurecode2k on 1 instance and on 4 with
 * round-robin; blackbox at b563c440, then roofline and trained-physics at HEAD f90a1e3a; then the
 * prefix-group and tight-KV runs of HEAD with its listed defects removed; then HEAD's MoE runs
 * with data and expert parallelism, a flag-driven workload of their own; then HEAD's gateway
 * flow-control runs, with their gateway counts) through
 * `simulate()` and prints, per run, the share of requests that match the
 * reference exactly and the largest difference per field, then the result.json fields that
 * differ. Exits 1 when anything differs, so a change that breaks parity shows where.
 */
import { FLOW_RUNS, compareFlowRun } from '../packages/cli/test/flow-control-parity-runs.js';
import { MOE_PARITY_RUNS, compareMoERun } from '../packages/cli/test/moe-parity-runs.js';
import { FIDELITY_RUNS, HEAD_PARITY_RUNS, PARITY_RUNS, REFERENCE, compareLibraryRun, formatComparison, isExactMatch } from '../packages/cli/test/parity-compare.js';

const r = REFERENCE;
process.stdout.write(
  `BLIS parity: ${r.model} on ${r.hardware} TP${r.tp}, blackbox alpha [${r.alpha.join(', ')}] beta [${r.beta.join(', ')}], ` +
    `${r.totalKVBlocks} KV blocks of ${r.blockSizeTokens}, max ${r.maxNumSeqs} seqs, ${r.maxNumBatchedTokens}-token budget, seed ${r.seed}, ${r.routing}; ` +
    'the roofline and trained-physics runs use BLIS HEAD\'s defaults instead of coefficients\n\n',
);
let ok = true;
for (const run of [...PARITY_RUNS, ...HEAD_PARITY_RUNS, ...FIDELITY_RUNS]) {
  const started = performance.now();
  const comparison = compareLibraryRun(run);
  process.stdout.write(`${formatComparison(comparison)}\n\n`);
  process.stderr.write(`(${run.name}: ${((performance.now() - started) / 1000).toFixed(2)} s)\n`);
  if (!isExactMatch(comparison)) ok = false;
}
for (const run of MOE_PARITY_RUNS) {
  const started = performance.now();
  const comparison = compareMoERun(run);
  process.stdout.write(`${formatComparison(comparison)}\n\n`);
  process.stderr.write(`(${run.name}, qwen3-30b-a3b ${run.args.join(' ')}: ${((performance.now() - started) / 1000).toFixed(2)} s)\n`);
  if (!isExactMatch(comparison)) ok = false;
}
for (const run of FLOW_RUNS) {
  const started = performance.now();
  const { comparison, gateway } = compareFlowRun(run);
  const counts = Object.keys(gateway.blis).filter((k) => gateway.ours[k] !== gateway.blis[k]);
  process.stdout.write(`${formatComparison(comparison)}\n  gateway counts    ${counts.length === 0 ? 'all equal' : counts.map((k) => `${k}: reference ${gateway.blis[k]}, ours ${gateway.ours[k]}`).join('; ')}\n\n`);
  process.stderr.write(`(${run.name}: ${((performance.now() - started) / 1000).toFixed(2)} s)\n`);
  if (!isExactMatch(comparison) || counts.length > 0) ok = false;
}
process.stdout.write(ok ? 'parity: every request and every aggregate field matches the Go BLIS\n' : 'parity: MISMATCH\n');
process.exitCode = ok ? 0 : 1;
