import { nearestRank, sortedCopy } from './percentile.js';
import { type Issue, mean, ms, pct, r3 } from './summary-format.js';
import type { TraceAnalyzer } from './trace-analyzer.js';

/** Transfers are often well under a millisecond: one more digit than the summary's other times. */
const ms2 = (us: number) => (us / 1000).toFixed(2);

const perInstance = (counts: readonly number[], members?: Iterable<number>) => {
  const idx = members !== undefined ? [...members].sort((x, y) => x - y) : counts.map((_, i) => i);
  return idx
    .filter((i) => members !== undefined || (counts[i] ?? 0) > 0)
    .map((i) => `${i}:${counts[i] ?? 0}`)
    .join(' ');
};

/**
 * The summary's P/D paragraph (empty for a trace without P/D records): the decider's answers,
 * prefill routing, KV transfer times, and whether transfers dominate the TTFT of the
 * disaggregated requests, judged per request from its `kv_transfer` and `outcome` records.
 */
export function pdLines(a: TraceAnalyzer): string[] {
  const pd = a.pd;
  if (!pd.active) return [];
  const reasons = [...pd.reasons.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, 3)
    .map(([r, n]) => `${r === '' ? 'no reason' : r} ${n}`)
    .join(', ');
  const lines = [
    '',
    '## P/D disaggregation',
    `- Decider: ${pd.requests} requests, ${pd.disaggregated} disaggregated, ${pd.local} kept local${reasons === '' ? '' : ` (${reasons})`}; decode pods chosen ${perInstance(pd.decodeChosen)}.`,
  ];
  if (pd.prefillDecisions > 0)
    lines.push(
      `- Prefill routing: ${pd.prefillDecisions} decisions; per prefill pod ${perInstance(pd.prefillRoutedTo, pd.prefillPool)}; regret > 0 in ${pd.prefillRegretPositive} (${pct(pd.prefillRegretPositive, pd.prefillDecisions)}), mean ${r3(mean(pd.prefillRegretSum, pd.prefillDecisions))}, max ${r3(pd.prefillRegretMax)}.`,
    );
  if (pd.transfers > 0) {
    const d = sortedCopy(pd.transferUs);
    let sum = 0;
    for (const x of d) sum += x;
    lines.push(`- KV transfers: ${pd.transfers}, duration mean ${ms2(sum / d.length)} ms, p99 ${ms2(nearestRank(d, 99))} ms; ${(pd.transferBlocks / pd.transfers).toFixed(1)} blocks each on average.`);
  }
  if (pd.judged > 0) {
    const t = sortedCopy(pd.ttftUs);
    lines.push(
      `- Disaggregated requests completed: ${pd.judged}, TTFT p50 ${ms(nearestRank(t, 50))} ms, p99 ${ms(nearestRank(t, 99))} ms; KV transfer over half the TTFT for ${pd.transferBound} (${pct(pd.transferBound, pd.judged)}).`,
    );
  }
  if (pd.isTransferBound)
    lines.push(
      `- transfer-bound: ${pd.transferBound} of ${pd.judged} disaggregated requests spent more than half their TTFT in KV transfer; consider more bandwidth, --pd-transfer-contention off, or a prefix-threshold decider.`,
    );
  return lines;
}

/** A key issue when KV transfers dominate the TTFT of more than a fifth of the disaggregated requests. */
export function pdIssues(a: TraceAnalyzer): Issue[] {
  const pd = a.pd;
  if (!pd.isTransferBound) return [];
  const w = pd.worst;
  return [
    {
      head: `P/D (KV transfer): ${pd.transferBound} of ${pd.judged} disaggregated requests (${pct(pd.transferBound, pd.judged)}) spent more than half their TTFT in KV transfer.`,
      details: w === undefined ? [] : [`e.g. ${w.id}: transfer ${ms2(w.transferUs)} ms of a ${ms(w.ttftUs)} ms TTFT.`],
    },
  ];
}

export function pdFocusLines(a: TraceAnalyzer): string[] {
  const pd = a.pd;
  if (!pd.isTransferBound) return [];
  return [
    `- Shorten KV transfers (${pd.transferBound} of ${pd.judged} disaggregated requests transfer-bound): raise --pd-transfer-bandwidth, turn --pd-transfer-contention off, or keep short prompts local (--pd-decider prefix-threshold).`,
  ];
}
