import type { CandidateEntry, EncodeRoutingRecord, PrefillRoutingRecord, RoutingRecord, SnapshotEntry, TraceRecord } from './records.js';

/**
 * Hand-built JSON lines. A trace writes one line per decision, so the writer avoids the generic
 * `JSON.stringify` walk over whole records; the output is still exactly what `JSON.parse` reads
 * back into an equal record (key order fixed by each builder, non-finite numbers as null).
 */
export function num(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

export function str(s: string): string {
  return JSON.stringify(s);
}

function numArray(a: readonly number[]): string {
  let out = '[';
  for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : ',') + num(a[i]);
  return `${out}]`;
}

function strArray(a: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : ',') + str(a[i]);
  return `${out}]`;
}

function numRecord(r: Readonly<Record<string, number>>): string {
  let out = '{';
  let first = true;
  for (const k in r) {
    out += `${first ? '' : ','}${str(k)}:${num(r[k])}`;
    first = false;
  }
  return `${out}}`;
}

function snapshot(s: SnapshotEntry): string {
  return `{"q":${num(s.q)},"b":${num(s.b)},"f":${num(s.f)},"kv":${num(s.kv)},"free":${num(s.free)},"pb":${num(s.pb)},"age":${num(s.age)}}`;
}

function candidate(c: CandidateEntry): string {
  return `{"i":${c.i},"s":${num(c.s)},"by":${numRecord(c.by)}}`;
}

/** From `scored` on: the fields a `route` and a `prefill_routing` record share, in that order. */
function decisionTail(r: RoutingRecord | PrefillRoutingRecord | EncodeRoutingRecord): string {
  let by = '{';
  let first = true;
  for (const k in r.by) {
    by += `${first ? '' : ','}${str(k)}:${numArray(r.by[k])}`;
    first = false;
  }
  by += '}';
  let snap = '[';
  for (let i = 0; i < r.snap.length; i++) snap += (i === 0 ? '' : ',') + snapshot(r.snap[i]);
  snap += ']';
  let line = `"scored":${str(r.scored)},"scores":${numArray(r.scores)},"by":${by},"snap":${snap},"regret":${num(r.regret)}`;
  if (r.pool !== undefined) line += `,"pool":${numArray(r.pool)}`;
  if (r.topk !== undefined) {
    line += ',"topk":[';
    for (let i = 0; i < r.topk.length; i++) line += (i === 0 ? '' : ',') + candidate(r.topk[i]);
    line += ']';
  }
  return `${line}}`;
}

function routing(r: RoutingRecord): string {
  const line =
    `{"t":"route","seq":${r.seq},"ts":${num(r.ts)},"id":${str(r.id)},"tenant":${str(r.tenant)},"slo":${str(r.slo)},"in":${r.in},"blocks":${r.blocks},` +
    `"prefix":${str(r.prefix)},"inst":${r.inst},"reason":${str(r.reason)},${decisionTail(r)}`;
  if (r.adapter === undefined && r.warm === undefined) return line;
  const adapter = r.adapter === undefined ? '' : `,"adapter":${str(r.adapter)}`;
  const warm = r.warm === undefined ? '' : `,"warm":[${r.warm.join(',')}]`;
  return `${line.slice(0, -1)}${adapter}${warm}}`;
}

/** One record as a JSON line, newline included. */
export function formatRecord(r: TraceRecord): string {
  switch (r.t) {
    case 'route':
      return `${routing(r)}\n`;
    case 'disaggregation':
      return `{"t":"disaggregation","ts":${num(r.ts)},"id":${str(r.id)},"disaggregate":${r.disaggregate},"reason":${str(r.reason)},"decode_inst":${r.decode_inst}}\n`;
    case 'prefill_routing':
      return `{"t":"prefill_routing","ts":${num(r.ts)},"id":${str(r.id)},"inst":${r.inst},"reason":${str(r.reason)},${decisionTail(r)}\n`;
    case 'encode_routing':
      return `{"t":"encode_routing","ts":${num(r.ts)},"id":${str(r.id)},"inst":${r.inst},"reason":${str(r.reason)},${decisionTail(r)}\n`;
    case 'kv_transfer':
      return `{"t":"kv_transfer","ts":${num(r.ts)},"id":${str(r.id)},"start_us":${num(r.start_us)},"dur_us":${num(r.dur_us)},"blocks":${r.blocks},"prefill_inst":${r.prefill_inst},"decode_inst":${r.decode_inst}}\n`;
    case 'admit':
      return `{"t":"admit","ts":${num(r.ts)},"id":${str(r.id)},"tenant":${str(r.tenant)},"slo":${str(r.slo)},"admit":${r.admit},"reason":${str(r.reason)},"in_flight":${num(r.in_flight)},"rate":${num(r.rate)},"saturation":${num(r.saturation)}}\n`;
    case 'priority':
      return `{"t":"priority","ts":${num(r.ts)},"id":${str(r.id)},"score":${num(r.score)}}\n`;
    case 'outcome': {
      let line = `{"t":"outcome","ts":${num(r.ts)},"id":${str(r.id)},"status":${str(r.status)},"slo":${str(r.slo)},"inst":${r.inst}`;
      if (r.ttft_us !== undefined) line += `,"ttft_us":${num(r.ttft_us)}`;
      if (r.e2e_us !== undefined) line += `,"e2e_us":${num(r.e2e_us)}`;
      if (r.out !== undefined) line += `,"out":${num(r.out)}`;
      line += `,"blocks":${r.blocks},"hit_blocks":${r.hit_blocks},"preemptions":${r.preemptions},"target_us":${num(r.target_us)},"slo_met":${r.slo_met === null ? 'null' : r.slo_met}`;
      return r.reason === undefined ? `${line}}\n` : `${line},"reason":${str(r.reason)}}\n`;
    }
    case 'queued':
      return `{"t":"queued","ts":${num(r.ts)},"id":${str(r.id)},"inst":${r.inst},"prio":${num(r.prio)}}\n`;
    case 'scheduled':
      return `{"t":"scheduled","ts":${num(r.ts)},"id":${str(r.id)},"inst":${r.inst},"prio":${num(r.prio)},"hit_blocks":${r.hit_blocks}}\n`;
    case 'preempted':
      return `{"t":"preempted","ts":${num(r.ts)},"id":${str(r.id)},"inst":${r.inst}}\n`;
    case 'batch':
      return `{"t":"batch","ts":${num(r.ts)},"inst":${r.inst},"dt":${num(r.dt)},"prefill":${r.prefill},"prefill_tokens":${r.prefill_tokens},"decode":${r.decode}}\n`;
    case 'scale':
      return (
        `{"t":"scale","ts":${num(r.ts)},"pool":${str(r.pool)},"policy":${str(r.policy)},"routable":${r.routable},"pending":${r.pending},"draining":${r.draining},` +
        `"avg_q":${num(r.avg_q)},"avg_kv":${num(r.avg_kv)},"waiting":${r.waiting},"rate":${num(r.rate)},"signals":${numRecord(r.signals)},` +
        `"proposed":${num(r.proposed)},"delta":${num(r.delta)},"outcome":${str(r.outcome)},"reason":${str(r.reason)}}\n`
      );
    case 'scale_action':
      return `{"t":"scale_action","ts":${num(r.ts)},"pool":${str(r.pool)},"before":${r.before},"after":${r.after},"ids":${strArray(r.ids)},"unplaced":${r.unplaced}}\n`;
    case 'instance_state':
      return `{"t":"instance_state","ts":${num(r.ts)},"inst":${r.inst},"id":${str(r.id)},"state":${str(r.state)}}\n`;
    case 'anomaly': {
      let line = `{"t":"anomaly","ts":${num(r.ts)},"kind":${str(r.kind)},"inst":${r.inst},"ids":${strArray(r.ids)}`;
      if (r.pool !== undefined) line += `,"pool":${str(r.pool)}`;
      if (r.slo !== undefined) line += `,"slo":${str(r.slo)}`;
      if (r.p50_us !== undefined) line += `,"p50_us":${num(r.p50_us)}`;
      if (r.p99_us !== undefined) line += `,"p99_us":${num(r.p99_us)}`;
      if (r.ratio !== undefined) line += `,"ratio":${num(r.ratio)}`;
      return `${line}}\n`;
    }
    case 'header': {
      let pol = '{';
      let first = true;
      for (const k in r.policies) {
        pol += `${first ? '' : ','}${str(k)}:${str(r.policies[k])}`;
        first = false;
      }
      return `{"t":"header","version":${r.version},"level":${str(r.level)},"k":${r.k},"slo_ttft_us":${num(r.slo_ttft_us)},"slo_e2e_us":${num(r.slo_e2e_us)},"tail_ratio":${num(r.tail_ratio)},"policies":${pol}}}\n`;
    }
    case 'end':
      return `{"t":"end","ts":${num(r.ts)}}\n`;
  }
}
