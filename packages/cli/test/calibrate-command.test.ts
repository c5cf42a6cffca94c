import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, blis, rejects } from './blis-process.js';

// `blis calibrate` through the process: a good run writes the report and prints the table; each
// bad input exits 2 naming the file or flag, with nothing on stdout.

const dir = mkdtempSync(join(tmpdir(), 'blis-calibrate-cli-'));
const COLUMNS =
  'request_id,client_id,tenant_id,slo_class,vllm_priority,session_id,round_index,prefix_group,prefix_length,streaming,input_tokens,output_tokens,text_tokens,image_tokens,audio_tokens,video_tokens,reason_ratio,model,deadline_us,server_input_tokens,arrival_time_us,send_time_us,first_chunk_time_us,last_chunk_time_us,num_chunks,status,error_message,finish_reason';
const EPOCH = 1_700_000_000_000_000;
/** CAL-1's TTFTs (100..400 µs) on the client side, plus the header's 1.5 ms RTT. */
function row(id: number, ttft: number, status = 'ok'): string {
  const send = EPOCH + id * 10_000;
  return `${id},c,,critical,1,,0,,0,true,100,10,100,0,0,0,0,m,0,0,${id * 10_000},${send},${send + ttft + 1500},${send + ttft + 2400},10,${status},,length`;
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const header = file('h.yaml', 'trace_version: 3\ntime_unit: us\nmode: real\nwarm_up_requests: 0\nnetwork:\n  measured_rtt_ms: 1.5\nobserved_kv_metrics:\n  source: tiered\n  hit_rate: 0.7\n');
const data = file('d.csv', `${COLUMNS}\n${[row(0, 100), row(1, 200), row(2, 300), row(3, 400)].join('\n')}\n`);
const simTtft = [90, 210, 330, 380];
const results = file('sim.json', JSON.stringify(simTtft.map((t, i) => ({ request_id: `request_${i}`, ttft_us: t, e2e_us: t + 900, input_tokens: 100, output_tokens: 10 }))));
const ours = file(
  'ours.json',
  JSON.stringify({ cache_hit_rate: 0.75, requests: simTtft.map((t, i) => ({ request_id: String(i), arrival_ms: 0, input_tokens: 100, output_tokens: 10, handled_by: 'instance_0', ttft_ms: t / 1000, itl_ms: 0.1, e2e_ms: (t + 900) / 1000, scheduling_delay_ms: 0, cache_hit_blocks: 0, preemptions: 0 })) }),
);
const base = (report: string, sim = results) => ['calibrate', '--trace-header', header, '--trace-data', data, '--sim-results', sim, '--report', report];

describe('blis calibrate', () => {
  it('--html writes the calibration as a report page, and blis report --calibration adds it to a run report', async () => {
    const report = join(dir, 'rh.json');
    const page = join(dir, 'rh.html');
    const r = await blis([...base(report), '--html', page]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    const html = readFileSync(page, 'utf8');
    expect([...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1])).toEqual(['calibration']);
    expect(html).toContain('<svg');
    const data = JSON.parse(/<script type="application\/json" id="blis-report-data">([\s\S]*?)<\/script>/.exec(html)![1]);
    const section = data.sections[0];
    // One table row per graded metric, p99 in ms: the report's µs / 1000.
    const ttftRow = section.table.rows.find((row: unknown[]) => row[1] === 'TTFT');
    expect(ttftRow).toEqual(['rh', 'TTFT', 4, rep.metrics.ttft.request_level.mape, rep.metrics.ttft.request_level.pearson_r, 'over-predict', 'excellent', rep.metrics.ttft.workload_level.real_p99 / 1000, rep.metrics.ttft.workload_level.sim_p99 / 1000]);
    const bars = section.charts[0].values;
    expect(bars).toContainEqual({ panel: 'TTFT', group: 'mean', bar: 'real', value: rep.metrics.ttft.workload_level.real_mean / 1000 });
    // The same section inside a run report, named by name=path.
    const run = join(dir, 'run.json');
    const sim = await blis(['run', '--model', 'qwen/qwen3-14b', '--num-requests', '20', '--rate', '5', '--quiet', '--results-path', run]);
    expect(sim.code, sim.stderr).toBe(0);
    const both = await blis(['report', run, '--calibration', `cal=${report}`, '-o', join(dir, 'both.html')]);
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout).sections[0]).toBe('calibration');
    expect(readFileSync(join(dir, 'both.html'), 'utf8')).toContain('<b>cal</b>: calibration, 4 matched pairs of 4 recorded requests');
  });

  it('blis report refuses a --calibration file that is not a calibrate report, naming the field', () => {
    const bad = file('not-cal.json', JSON.stringify({ trace_info: { num_requests: 4, warm_up_excluded: 0 }, metrics: {} }));
    return rejects(expect, ['report', '--calibration', bad, '-o', join(dir, 'x.html')], `${bad} trace_info.matched_pairs: expected a number (a blis calibrate report), found nothing (the field is missing)`);
  });

  it('blis report refuses a --calibration file whose breakdowns are malformed, naming the field', () => {
    const bad = file('bad-breakdown.json', JSON.stringify({ trace_info: { num_requests: 4, warm_up_excluded: 0, matched_pairs: 4 }, metrics: {}, breakdowns: { slo_class: { critical: { count: 2, ttft_mape: 'high', e2e_mape: 0, ttft_real_mean: 1, ttft_sim_mean: 1, e2e_real_mean: 1, e2e_sim_mean: 1 } } } }));
    return rejects(expect, ['report', '--calibration', bad, '-o', join(dir, 'x.html')], `${bad} breakdowns.slo_class.critical.ttft_mape: expected a number (a blis calibrate report), found "high"`);
  });

  it('writes the report, prints the table, and is deterministic', async () => {
    const report = join(dir, 'r1.json');
    const r = await blis([...base(report), '--sim-metrics', ours]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`blis: calibration report written to ${report}`);
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.trace_info).toEqual({ num_requests: 4, warm_up_excluded: 0, matched_pairs: 4, token_mismatches: 0 });
    // CAL-1 shifted by the same 1500 µs on both sides: the same errors, over larger real values.
    expect(rep.metrics.ttft.workload_level.mean_error).toBeCloseTo(2.5, 9);
    expect(rep.metrics.ttft.request_level).toMatchObject({ bias_direction: 'over-predict', quality: 'excellent' });
    expect(rep.metrics.ttft.request_level.pearson_r).toBeCloseTo(0.98533, 5);
    expect(rep.hit_rate).toMatchObject({ real_hit_rate: 0.7, sim_hit_rate: 0.75, within: true, source: 'tiered' });
    expect(rep.ttft_tolerance.within).toBe(true);
    expect(r.stdout).toMatch(/^requests 4: 4 matched/);
    expect(r.stdout).toMatch(/\nTTFT +4 +1750\/1753 .* excellent\n/);
    expect(r.stdout).toMatch(/\nKV hit rate \(tiered\): real 0\.7000, sim 0\.7500, error 5\.00 pp \(tolerance 5 pp\): WITHIN\n/);
    const again = await blis([...base(join(dir, 'r2.json')), '--sim-metrics', ours]);
    expect(again.stdout).toBe(r.stdout);
    expect(readFileSync(join(dir, 'r2.json'), 'utf8')).toBe(readFileSync(report, 'utf8'));
  });

  it("our replay results and BLIS's array give the same report", async () => {
    const a = join(dir, 'ra.json');
    const b = join(dir, 'rb.json');
    expect((await blis(base(a))).code).toBe(0);
    expect((await blis(base(b, ours))).code).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
  });

  it('flags change the result: --network-rtt-us 0, --warmup-requests 2, --slo-ttft', async () => {
    const report = join(dir, 'r3.json');
    const r = await blis([...base(report), '--network-rtt-us', '0', '--warmup-requests', '2', '--slo-ttft', 'critical=1.8ms']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(report, 'utf8'));
    expect(rep.trace_info).toMatchObject({ warm_up_excluded: 2, matched_pairs: 2 });
    // Without the RTT the simulator misses by about 1500 µs of 1800 and 1900.
    expect(rep.metrics.ttft.request_level.bias_direction).toBe('under-predict');
    expect(rep.goodput.targets.critical).toEqual({ TTFTMs: 1.8, ITLMs: 0, E2EMs: 0 });
    expect(rep.goodput.per_class.critical).toMatchObject({ count: 2, real_slo_attainment: 0.5, sim_slo_attainment: 1 });
  });

  it('--fail-on-tolerance exits 1 after writing the report when TTFT MAPE is over the threshold', async () => {
    const report = join(dir, 'r4.json');
    const r = await blis([...base(report), '--ttft-mape-threshold', '0.001', '--fail-on-tolerance']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/blis: --fail-on-tolerance: TTFT MAPE outside tolerance\n$/);
    expect(r.stdout).toMatch(/EXCEEDS/);
    expect(existsSync(report)).toBe(true);
    expect((await blis([...base(join(dir, 'r5.json')), '--fail-on-tolerance'])).code).toBe(0);
  });
});

describe('blis calibrate: bad input exits 2, names the problem, prints nothing on stdout', () => {
  const out = join(dir, 'bad.json');
  it('a missing required flag', () => rejects(expect, ['calibrate', '--trace-header', header, '--trace-data', data, '--report', out], '--sim-results: expected a value (`blis calibrate` requires it), found nothing'));
  it('an unreadable file', () => rejects(expect, base(out, join(dir, 'nope.json')), `--sim-results ${join(dir, 'nope.json')}: expected a readable results JSON file, found ENOENT (no such file or directory)`));
  it('a malformed CSV row', () => {
    const bad = file('bad.csv', `${COLUMNS}\n${row(0, 100).replace(/,ok,/, ',ok,').replace(`,${EPOCH},`, ',later,')}\n`);
    return rejects(expect, ['calibrate', '--trace-header', header, '--trace-data', bad, '--sim-results', results, '--report', out], `${bad}:2 send_time_us: expected a non-negative integer, found "later"`);
  });
  it('malformed JSON results', () => {
    const bad = file('bad-sim.json', '[{"request_id":"request_0","ttft_us":-3,"e2e_us":1,"input_tokens":1,"output_tokens":1}]');
    return rejects(expect, base(out, bad), new RegExp(`^blis: ${bad.replace(/[.]/g, '\\.')} \\[0\\]\\.ttft_us: expected .*found -3$`));
  });
  it('no matching ids', () => {
    const other = file('other.json', JSON.stringify([{ request_id: 'request_99', ttft_us: 1, e2e_us: 2, input_tokens: 100, output_tokens: 10 }]));
    return rejects(expect, base(out, other), `${other} request_id: expected ids matching the request_id column of ${data} (both number requests the same way), found no id in common`);
  });
  it('a trace with no successful request', () => {
    const failed = file('failed.csv', `${COLUMNS}\n${row(0, 100, 'error')}\n`);
    return rejects(expect, ['calibrate', '--trace-header', header, '--trace-data', failed, '--sim-results', results, '--report', out], `${failed} status: expected at least one request with status ok, found none`);
  });
  it('bad flag values', () =>
    rejects(
      expect,
      [...base(out), '--network-rtt-us', '-5', '--ttft-mape-threshold', 'x', '--slo-e2e', 'critical'],
      '--network-rtt-us: expected -1 (the header\'s) or a non-negative integer of µs, found "-5"',
      '--ttft-mape-threshold: expected a non-negative fraction (0.15 is 15%), found "x"',
    ));
  it('a bad --slo flag', () => rejects(expect, [...base(out), '--slo-e2e', 'critical'], '--slo-e2e: expected class=duration pairs, comma-separated (e.g. critical=100ms,standard=2s), found the pair "critical" (expected class=duration)'));
  it('wrote no report', () => expect(existsSync(out)).toBe(false));
});

describe('docs/cli.md', () => {
  it('lists every flag of `blis calibrate --help` with its default', () => {
    // Only the calibrate section: other commands document flags of the same name.
    const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8').split('## `blis calibrate`')[1].split('\n## ')[0];
    const help = spawnSync(process.execPath, [BIN, 'calibrate', '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout.replace(/\n {20,}(?=\S)/g, ' ');
    const flags = [...help.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)(?: <\w+>)?\s{2,}(.*)$/gm)];
    expect(flags.length).toBeGreaterThan(10);
    for (const [, flag, desc] of flags) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`${flag} `) || l.startsWith(`| \`${flag}\``) || l.startsWith(`| \`-h, ${flag}`));
      expect(line, flag).toBeDefined();
      const def = / \(default: (.*?)\)$/.exec(desc)?.[1];
      if (def !== undefined) expect(line, flag).toContain(`\`${def}\``);
    }
  });
});
