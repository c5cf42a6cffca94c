import { pdFocusLines, pdIssues, pdLines } from './pd-summary.js';
import type { AnomalyRecord } from './records.js';
import { scaleFocusLines, scaleIssues, scaleLines } from './scale-summary.js';
import type { JudgedDecision } from './decision-context.js';
import type { TraceAnalyzer } from './trace-analyzer.js';

export type SummaryStrategy = 'issue-focused' | 'decision-audit' | 'counterfactual';

export const SUMMARY_STRATEGIES: readonly SummaryStrategy[] = ['issue-focused', 'decision-audit', 'counterfactual'];

export interface SummaryOptions {
  strategy?: SummaryStrategy;
  /** Budget in approximate tokens (see {@link estimateTokens}); default 1000. */
  maxTokens?: number;
}

/**
 * Approximate token count: one token per 4 characters, the usual rule of thumb for English
 * text with numbers under BPE tokenizers. Deterministic and tokenizer-free on purpose.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

import { type Issue, cls, mean, ms, pct, r3 } from './summary-format.js';

function outcomeLines(a: TraceAnalyzer, strategy: SummaryStrategy): string[] {
  const h = a.header;
  const seen = a.kinds.get('admit') ?? 0;
  const secs = a.endUs / 1e6;
  const pols = h === undefined ? '' : Object.entries(h.policies).map(([k, v]) => `${k}=${v}`).join(', ');
  const lines = [
    `# Trace summary (${strategy})`,
    `Run: ${seen} requests arrived, ${a.completed} completed, ${a.rejected} rejected at admission, ${a.status('shed')} shed, ${a.status('unservable')} dropped as unservable, ${a.status('timed_out')} timed out, ${a.status('drained') > 0 ? `${a.status('drained')} discarded by drains, ` : ''}${a.unresolved} unfinished; ${ms(a.endUs)} ms simulated on ${a.instanceCount} instances${pols === '' ? '' : ` (${pols})`}.`,
    '',
    '## Outcome',
    `- Throughput: ${(secs > 0 ? a.outputTokens / secs : 0).toFixed(1)} output tokens/s, ${(secs > 0 ? a.completed / secs : 0).toFixed(1)} completed requests/s.`,
  ];
  if (a.completed > 0) {
    const t = a.ttftPercentiles();
    const e = a.e2ePercentiles();
    lines.push(`- TTFT p50 ${ms(t.p50)} ms, p99 ${ms(t.p99)} ms; E2E p50 ${ms(e.p50)} ms, p99 ${ms(e.p99)} ms (client-observed, nearest rank).`);
  }
  const targets: string[] = [];
  if (h !== undefined && h.slo_ttft_us > 0) targets.push(`TTFT <= ${ms(h.slo_ttft_us)} ms`);
  if (h !== undefined && h.slo_e2e_us > 0) targets.push(`E2E <= ${ms(h.slo_e2e_us)} ms`);
  lines.push(`- SLO targets: ${targets.length > 0 ? targets.join(', ') : 'no run-level target'}${targets.length > 0 ? '' : ' (per-request targets apply where the workload sets them)'}.`);
  for (const name of a.classNames()) {
    const c = a.classes.get(name)!;
    const p = a.ttftPercentiles(name);
    const slo = c.withTarget === 0 ? 'no target' : `SLO met by ${c.met} of ${c.withTarget} (${pct(c.met, c.withTarget)}), missed by ${c.withTarget - c.met}`;
    lines.push(`- Class ${cls(name)}: ${c.completed} completed, TTFT p50 ${ms(p.p50)} ms, p99 ${ms(p.p99)} ms; ${slo}.`);
  }
  lines.push(`- Prefix cache: ${a.hitBlocks} of ${a.promptBlocks} prompt blocks hit (${pct(a.hitBlocks, a.promptBlocks)}).`);
  const perInstance = a
    .routeMembers()
    .map((i) => `${i}:${a.routedTo[i] ?? 0}`)
    .join(' ');
  if (!a.pd.active) lines.push(`- Routing: ${a.decisions} decisions; per instance ${perInstance}.`);
  else if (a.decisions > 0) lines.push(`- Routing of requests kept local (decode pool): ${a.decisions} decisions; per instance ${perInstance}.`);
  const lora = a.adapterRoutes;
  if (lora.total > 0)
    lines.push(
      `- LoRA adapters: ${lora.total} routings of adapter requests; ${lora.coldPastWarm} (${pct(lora.coldPastWarm, lora.total)}) went to an instance without the adapter while another held it, ${lora.coldEverywhere} found it resident nowhere.`,
    );
  lines.push(...pdLines(a), ...scaleLines(a));
  return lines;
}

function exampleWhere(e: AnomalyRecord): string {
  return `on instance ${e.inst} at t=${ms(e.ts)} ms`;
}

/**
 * The busiest and quietest instances a routing decision could choose (under P/D, the decode
 * pool's), when the busiest got at least half again the quietest's share.
 */
function imbalance(a: TraceAnalyzer): { hi: number; lo: number } | undefined {
  const members = a.routeMembers();
  if (members.length < 2 || a.decisions < 2 * members.length) return undefined;
  const n = (i: number) => a.routedTo[i] ?? 0;
  let hi = members[0];
  let lo = members[0];
  for (const i of members) {
    if (n(i) > n(hi)) hi = i;
    if (n(i) < n(lo)) lo = i;
  }
  return 2 * n(hi) >= 3 * n(lo) ? { hi, lo } : undefined;
}

function issues(a: TraceAnalyzer): Issue[] {
  const out: Issue[] = [];
  const missBlocks = a.promptBlocks - a.hitBlocks;
  if (a.routedAway > 0) {
    const details: string[] = [];
    if (missBlocks > 0) details.push(`${a.awayMissBlocks} of ${missBlocks} missed prompt blocks (${pct(a.awayMissBlocks, missBlocks)}) were cached on another instance when the request was routed.`);
    if (a.ttftAway.awayN > 0 && a.ttftAway.localN > 0)
      details.push(`Pattern: those requests had mean TTFT ${ms(mean(a.ttftAway.away, a.ttftAway.awayN))} ms vs ${ms(mean(a.ttftAway.local, a.ttftAway.localN))} ms for the rest.`);
    out.push({ head: `ROUTING (prefix locality): ${a.routedAway} of ${a.decisions} decisions (${pct(a.routedAway, a.decisions)}) sent the request away from an instance holding more of its prompt prefix.`, details });
  }
  if (a.regretPositive > 0) {
    const details = [`Scored by the policy in ${a.scoredBy.policy} decisions, by BLIS's load fallback -(queue+batch+in flight) in ${a.scoredBy.load}.`];
    if (a.ttftRegret.positiveN > 0 && a.ttftRegret.zeroN > 0)
      details.push(`Pattern: mean TTFT ${ms(mean(a.ttftRegret.positive, a.ttftRegret.positiveN))} ms after regret > 0 vs ${ms(mean(a.ttftRegret.zero, a.ttftRegret.zeroN))} ms after regret 0.`);
    out.push({
      head: `ROUTING (counterfactual regret): ${a.regretPositive} of ${a.decisions} decisions (${pct(a.regretPositive, a.decisions)}) did not pick the best-scored instance; mean regret ${r3(mean(a.regretSum, a.decisions))}, max ${r3(a.regretMax)}.`,
      details,
    });
  }
  if (a.sloMisses > 0) {
    const per = a
      .classNames()
      .map((n) => [n, a.classes.get(n)!] as const)
      .filter(([, c]) => c.withTarget > c.met)
      .map(([n, c]) => `${cls(n)} ${c.withTarget - c.met} of ${c.withTarget}`)
      .join(', ');
    out.push({
      head: `SLO: ${a.sloMisses} completed requests missed their target (${per}).`,
      details: [`${a.sloMissesAfterRegret} of them (${pct(a.sloMissesAfterRegret, a.sloMisses)}) followed a decision with regret > 0, ${a.sloMissesAfterAway} (${pct(a.sloMissesAfterAway, a.sloMisses)}) one that routed away from the prefix holder.`],
    });
  }
  const inv = a.anomalies.get('priority_inversion')!;
  if (inv.count > 0) {
    const e = inv.examples[0];
    out.push({ head: `SCHEDULING (priority inversion): ${inv.count} times a request started before a more urgent one that entered the same queue earlier.`, details: [`e.g. ${e.ids[0]} started before ${e.ids[1]} ${exampleWhere(e)}.`] });
  }
  const hol = a.anomalies.get('hol_blocking')!;
  if (hol.count > 0) {
    const e = hol.examples[0];
    out.push({ head: `SCHEDULING (head-of-line blocking): ${hol.count} times a request completed while a more urgent one queued ahead of it still waited.`, details: [`e.g. ${e.ids[0]} completed while ${e.ids[1]} waited ${exampleWhere(e)}.`] });
  }
  const tail = a.anomalies.get('tail_latency_blowup')!;
  if (tail.count > 0) {
    out.push({
      head: `LATENCY TAIL: ${tail.count} SLO classes have p99/p50 TTFT above ${a.header?.tail_ratio ?? 0}.`,
      details: tail.examples.map((e) => `class ${cls(e.slo ?? '')}: p99 ${ms(e.p99_us ?? 0)} ms / p50 ${ms(e.p50_us ?? 0)} ms = ${(e.ratio ?? 0).toFixed(2)}; slowest ${e.ids.join(', ')}.`),
    });
  }
  const thrash = a.anomalies.get('kv_thrashing')!;
  if (thrash.count > 0) out.push({ head: `KV THRASHING: ${thrash.count} blocks evicted from the CPU tier soon after being stored there.`, details: [`e.g. ${exampleWhere(thrash.examples[0])}.`] });
  out.push(...scaleIssues(a));
  if (a.rejected > 0 || a.status('shed') > 0) {
    const reasons = [...a.rejectReasons.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([r, n]) => `${r}: ${n}`);
    out.push({ head: `ADMISSION: ${a.rejected} requests rejected, ${a.status('shed')} shed from the gateway queue.`, details: reasons.length > 0 ? [`Reasons: ${reasons.join('; ')}.`] : [] });
  }
  if (a.preemptions > 0 || a.status('unservable') > 0 || a.status('timed_out') > 0) {
    out.push({
      head: `KV PRESSURE: ${a.preemptions} preemptions across ${a.preemptedRequests} requests; ${a.status('unservable')} dropped as unservable, ${a.status('timed_out')} timed out.`,
      details: [],
    });
  }
  const skew = imbalance(a);
  if (skew !== undefined) out.push({ head: `LOAD: instance ${skew.hi} received ${a.routedTo[skew.hi] ?? 0} requests, instance ${skew.lo} only ${a.routedTo[skew.lo] ?? 0}.`, details: [] });
  out.push(...pdIssues(a));
  return out;
}

function issueLines(list: Issue[], withDetails: boolean): string[] {
  const lines = [`## Key issues (${list.length} detected)`];
  if (list.length === 0) lines.push('- None: no anomaly, regret, SLO miss, rejection, preemption or imbalance in this trace.');
  list.forEach((iss, k) => {
    lines.push(`${k + 1}. ${iss.head}`);
    if (withDetails) for (const d of iss.details) lines.push(`   - ${d}`);
  });
  return lines;
}

function anomalyCounterLine(a: TraceAnalyzer): string {
  const parts = [...a.anomalies.entries()].map(([k, t]) => `${k} ${t.count}`);
  return `Anomaly counters: ${parts.join(', ')}.`;
}

function sloVerdict(d: JudgedDecision): string {
  const m = d.outcome.slo_met;
  return m === null ? 'no SLO target' : m ? 'SLO met' : 'SLO missed';
}

function resultLine(d: JudgedDecision): string {
  const o = d.outcome;
  if (o.status !== 'completed') return `${o.status}, ${o.preemptions} preemptions`;
  return `TTFT ${ms(o.ttft_us ?? 0)} ms, E2E ${ms(o.e2e_us ?? 0)} ms, ${o.hit_blocks} of ${o.blocks} prompt blocks hit, ${o.preemptions} preemptions, ${sloVerdict(d)}`;
}

function decisionLines(d: JudgedDecision, k: number): string[] {
  const c = d.ctx;
  return [
    `${k}. t=${ms(c.ts)} ms | routed ${c.id} (${cls(c.slo)}, ${c.in} tokens, prefix ${c.prefix === '' ? 'none' : `0x${c.prefix}`}) -> instance ${c.inst} (${c.reason})`,
    `   Context: chosen load ${c.chosenLoad}, KV ${(c.chosenKv * 100).toFixed(1)}% used, held ${c.chosenPb} of ${c.blocks} prefix blocks; best-scored instance ${c.bestInst} (score ${r3(c.bestScore)} vs ${r3(c.chosenScore)}, load ${c.bestLoad}); ${c.pbMax === 0 ? 'no instance held any of its prefix' : `most prefix on instance ${c.pbMaxInst} (${c.pbMax} blocks, load ${c.pbMaxLoad})`}.`,
    `   Result: ${resultLine(d)}.`,
  ];
}

function focusLines(a: TraceAnalyzer): string[] {
  const out: string[] = [];
  const missBlocks = a.promptBlocks - a.hitBlocks;
  // Worth a suggestion once a tenth of the misses were avoidable by routing.
  if (a.routedAway > 0 && a.awayMissBlocks > 0 && 10 * a.awayMissBlocks >= missBlocks)
    out.push(`- Weigh prefix locality more (precise-prefix-cache or prefix-affinity scorer) when an instance already holds the prompt: ${pct(a.awayMissBlocks, missBlocks)} of missed prompt blocks were cached elsewhere.`);
  if (a.regretPositive > 0 && a.scoredBy.load >= a.scoredBy.policy)
    out.push(`- The routing policy ignores load (${pct(a.regretPositive, a.decisions)} of decisions had regret > 0 against the load ranking): weighted routing with queue-depth and kv-utilization scorers follows it.`);
  if (a.regretPositive > 0 && a.scoredBy.policy > a.scoredBy.load) out.push(`- The policy overrode its own scores in ${a.regretPositive} decisions: check its tie-breaking and stateful scorers.`);
  const inv = a.anomalies.get('priority_inversion')!.count;
  const hol = a.anomalies.get('hol_blocking')!.count;
  if (inv + hol > 0) out.push(`- Order wait queues by priority (priority-fcfs scheduler, priority preemption): ${inv} inversions and ${hol} head-of-line blocks.`);
  const tail = a.anomalies.get('tail_latency_blowup')!;
  if (tail.count > 0) out.push(`- Tame the TTFT tail of ${tail.examples.map((e) => cls(e.slo ?? '')).join(', ')}: admission control or a higher priority for it.`);
  if (a.sloMisses > 0 && a.sloMissesAfterRegret === 0 && a.sloMissesAfterAway === 0)
    out.push(`- The ${a.sloMisses} SLO misses are not explained by routing choices: look at capacity, batching and admission.`);
  if (a.rejected > 0) out.push(`- Admission rejected ${a.rejected} requests: relax it if throughput matters more than latency.`);
  if (a.preemptions > 0) out.push(`- Reduce KV pressure (${a.preemptions} preemptions): route on kv-utilization, or admit fewer concurrent requests.`);
  const skew = imbalance(a);
  if (skew !== undefined)
    out.push(`- Spread the load: instance ${skew.hi} took ${a.routedTo[skew.hi] ?? 0} of ${a.decisions} requests; weigh queue-depth or load-balance scorers more against affinity.`);
  out.push(...pdFocusLines(a), ...scaleFocusLines(a));
  if (out.length === 0) out.push('- No issue stood out: compare this policy against alternatives on a heavier or burstier workload.');
  return ['## Suggested focus', ...out];
}

/** What the decision sections say when P/D disaggregated every request (no `route` record to quote). */
const ALL_DISAGGREGATED = '- No request was kept local, so there is no routing decision to quote: see the P/D section for prefill routing and transfers.';

function middleIssueFocused(a: TraceAnalyzer): string[] {
  const lines = [...issueLines(issues(a), true), anomalyCounterLine(a), ''];
  const worst = a.worstTtft.items.map((x) => x.d);
  lines.push(`## Worst decisions (${worst.length} examples, by TTFT)`);
  if (a.decisions === 0 && a.pd.active) lines.push(ALL_DISAGGREGATED);
  worst.forEach((d, k) => {
    lines.push(...decisionLines(d, k + 1));
  });
  return lines;
}

function middleDecisionAudit(a: TraceAnalyzer): string[] {
  const sample = a.auditSample();
  const lines = [`## Decision audit (${sample.length} of ${a.decisions} decisions, a deterministic sample)`];
  if (a.decisions === 0 && a.pd.active) lines.push(ALL_DISAGGREGATED);
  for (const d of sample) {
    const c = d.ctx;
    const flags: string[] = [];
    if (c.regret > 0) flags.push('regret > 0');
    if (c.pbMax > c.chosenPb) flags.push('away from prefix');
    if (d.outcome.slo_met === false) flags.push('SLO missed');
    lines.push(
      `- #${c.seq} t=${ms(c.ts)} ms ${c.id} -> instance ${c.inst}: regret ${r3(c.regret)}, load ${c.chosenLoad} (best-scored ${c.bestInst}: ${c.bestLoad}), prefix ${c.chosenPb}/${c.pbMax} blocks | ${resultLine(d)} | verdict: ${flags.length === 0 ? 'sound' : flags.join(', ')}`,
    );
  }
  lines.push(
    `Over all ${a.decisions} decisions: ${a.decisions - a.regretPositive} picked a best-scored instance, ${a.regretPositive} did not; ${a.routedAway} routed away from a prefix holder.`,
    '',
  );
  lines.push(...issueLines(issues(a), false), anomalyCounterLine(a));
  return lines;
}

function middleCounterfactual(a: TraceAnalyzer): string[] {
  const k = a.header?.k ?? 0;
  const lines = [
    '## Counterfactual regret',
    `- ${a.decisions} routing decisions: ${a.scoredBy.policy} scored by the policy, ${a.scoredBy.load} by the load fallback; top ${k} candidates recorded per decision.`,
    `- Regret > 0 in ${a.regretPositive} (${pct(a.regretPositive, a.decisions)}); mean ${r3(mean(a.regretSum, a.decisions))}, max ${r3(a.regretMax)}.`,
  ];
  const parts: string[] = [];
  if (a.ttftRegret.positiveN > 0) parts.push(`${ms(mean(a.ttftRegret.positive, a.ttftRegret.positiveN))} ms after regret > 0 (${a.ttftRegret.positiveN} requests)`);
  if (a.ttftRegret.zeroN > 0) parts.push(`${ms(mean(a.ttftRegret.zero, a.ttftRegret.zeroN))} ms after regret 0 (${a.ttftRegret.zeroN} requests)`);
  if (parts.length > 0) lines.push(`- Mean TTFT ${parts.join(' vs ')}.`);
  if (a.sloMisses > 0) lines.push(`- ${a.sloMissesAfterRegret} of ${a.sloMisses} SLO misses followed a decision with regret > 0.`);
  lines.push('');
  const top = a.worstRegret.items.map((x) => x.d);
  lines.push(`## Highest-regret decisions (${top.length})`);
  if (a.decisions === 0 && a.pd.active) lines.push(ALL_DISAGGREGATED);
  else if (top.length === 0) lines.push('- Every decision picked a best-scored instance: to change outcomes, change the scorers or their weights, not the choice.');
  top.forEach((d, i) => {
    const c = d.ctx;
    lines.push(
      `${i + 1}. t=${ms(c.ts)} ms ${c.id} -> instance ${c.inst} (score ${r3(c.chosenScore)}, load ${c.chosenLoad}, ${c.chosenPb} prefix blocks); instance ${c.bestInst} scored ${r3(c.bestScore)}: regret ${r3(c.regret)}.`,
      `   Had it gone to instance ${c.bestInst} it would have joined load ${c.bestLoad} instead of ${c.chosenLoad}. Outcome: ${resultLine(d)}.`,
    );
  });
  lines.push('', ...issueLines(issues(a), false), anomalyCounterLine(a));
  return lines;
}

/** The longest prefix of `lines` that fits in `room` characters (each line plus its newline). */
function fit(lines: readonly string[], room: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > room) break;
    out.push(line);
    used += line.length + 1;
  }
  return out;
}

const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * A deterministic text summary of a trace for LLM reflection. Every number in it is read or
 * derived from the analyzer, which is fed nothing but trace records, so the same trace file
 * always yields the same text. The budget is a hard cap: the outcome is kept first, then the
 * suggested focus, then as much of the middle (issues, decisions) as still fits.
 */
export function summarizeTrace(a: TraceAnalyzer, opts: SummaryOptions = {}): string {
  const strategy = opts.strategy ?? 'issue-focused';
  const limit = (opts.maxTokens ?? 1000) * 4;
  const head = fit([...outcomeLines(a, strategy), ''], limit);
  const tail = fit(['', ...focusLines(a)], limit - size(head));
  const middle = fit(
    strategy === 'decision-audit' ? middleDecisionAudit(a) : strategy === 'counterfactual' ? middleCounterfactual(a) : middleIssueFocused(a),
    limit - size(head) - size(tail),
  );
  const lines = [...head, ...middle];
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return `${[...lines, ...tail].join('\n')}\n`;
}
