import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';
import { csvRows, cut, expectBlisRun } from './blis-run-compare.js';

// Issues 39 and 40: multimodal clients generated as BLIS HEAD generates them, and the E/P/D
// encode stage. The references are BLIS f90a1e3a runs of one spec, a text client beside a
// multimodal one (fixtures/blis-head-epd-multimodal/README.md).

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-epd-multimodal');
const SPEC = join(FIXTURES, 'multimodal.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'blis-epd-'));
const EPD = ['--num-instances', '5', '--prefill-instances', '1', '--decode-instances', '3', '--encode-instances', '1', '--encode-decider', 'multimodal'];
const media = (r: Record<string, string>) => Number(r.image_tokens) + Number(r.audio_tokens) + Number(r.video_tokens) > 0;

describe("multimodal workloads and the encode pool, against BLIS HEAD's runs", () => {
  it('a plain 2-instance run: the same 300 requests (with their text, image and audio tokens), each simulated to the same result', async () => {
    await expectBlisRun(SPEC, ['--num-instances', '2'], FIXTURES, 'plain', join(tmp, 'plain'));
  });

  it('E/P/D kept local (1 prefill, 3 decode, 1 encode pod): every encode decision moves the round-robin counter as in BLIS', async () => {
    const result = (await expectBlisRun(SPEC, EPD, FIXTURES, 'epd-never', join(tmp, 'epd-never'))) as { pd: { encode: { encoded_requests: number; encode_routing_rejections: number; encode_distribution: Record<string, number> } } };
    const multimodal = csvRows(readFileSync(join(FIXTURES, 'epd-never.csv'), 'utf8')).filter(media).length;
    expect(multimodal).toBeGreaterThan(100);
    expect(result.pd.encode).toEqual({ decider: 'multimodal', encoded_requests: multimodal, encode_routing_rejections: 0, encode_distribution: { instance_4: multimodal } });
  });

  it('E/P/D disaggregated (2 prefill, 2 decode, 1 encode pod): the trace BLIS writes has the same requests', async () => {
    const out = join(tmp, 'always');
    const r = await blis(['run', '--model', 'qwen/qwen3-14b', '--workload-spec', SPEC, '--total-kv-blocks', '15909', '--num-instances', '5', '--prefill-instances', '2', '--decode-instances', '2', '--encode-instances', '1', '--encode-decider', 'multimodal', '--pd-decider', 'always', '--quiet', '--trace-output', out]);
    expect(r.code, r.stderr).toBe(0);
    const reference = csvRows(readFileSync(join(FIXTURES, 'epd-always-generated.csv'), 'utf8'));
    const ours = csvRows(readFileSync(`${out}.csv`, 'utf8'));
    const cols = Object.keys(reference[0]);
    expect(ours.map((x) => cols.map((c) => x[c]))).toEqual(reference.map((x) => cols.map((c) => x[c])));
    expect(JSON.parse(r.stdout).pd.encode.encoded_requests).toBe(reference.filter(media).length);
    // The decision trace: one encode_routing record per encoded request, on the encode pool (instance 4).
    const traced = await blis(['run', '--model', 'qwen/qwen3-14b', '--workload-spec', SPEC, '--total-kv-blocks', '15909', '--num-instances', '5', '--prefill-instances', '2', '--decode-instances', '2', '--encode-instances', '1', '--encode-decider', 'multimodal', '--pd-decider', 'always', '--quiet', '--trace-level', 'decisions', '--decision-trace', `${out}.jsonl`]);
    expect(traced.code, traced.stderr).toBe(0);
    const encodeRecords = readFileSync(`${out}.jsonl`, 'utf8').split('\n').filter((l) => l.startsWith('{"t":"encode_routing"')).map((l) => JSON.parse(l));
    expect(encodeRecords.map((e) => [e.inst, e.pool])).toEqual(reference.filter(media).map(() => [4, [4]]));
  });

  it("replay of BLIS's own trace of the run on the same E/P/D cluster: its modality columns are read back, every request simulated to BLIS's result", async () => {
    // BLIS's replay of trace.{yaml,csv} (its --trace-output of the plain run) with these flags
    // gives epd-never's rows and aggregate exactly (checked when the fixtures were made).
    const out = join(tmp, 'replay');
    const r = await blis(['replay', '--model', 'qwen/qwen3-14b', '--trace-header', join(FIXTURES, 'trace.yaml'), '--trace-data', join(FIXTURES, 'trace.csv'), '--total-kv-blocks', '15909', ...EPD, '--quiet', '--trace-output', out, '--metrics-path', `${out}-m.json`]);
    expect(r.code, r.stderr).toBe(0);
    const ours = cut(readFileSync(`${out}.csv`, 'utf8'), JSON.parse(readFileSync(`${out}-m.json`, 'utf8')));
    const reference = csvRows(readFileSync(join(FIXTURES, 'epd-never.csv'), 'utf8'));
    expect(ours.map((x) => [x.arrival_time_us, x.image_tokens, x.audio_tokens, x.handled_by, Number(x.e2e_ms)])).toEqual(reference.map((x) => [x.arrival_time_us, x.image_tokens, x.audio_tokens, x.handled_by, Number(x.e2e_ms)]));
  });

  it('blis convert writes the parts of each prompt where BLIS writes them', async () => {
    const out = join(tmp, 'convert');
    const r = await blis(['convert', '--workload-spec', SPEC, '--output', out]);
    expect(r.code, r.stderr).toBe(0);
    const reference = csvRows(readFileSync(join(FIXTURES, 'epd-always-generated.csv'), 'utf8'));
    const ours = csvRows(readFileSync(`${out}.csv`, 'utf8'));
    const cols = Object.keys(reference[0]);
    expect(ours.map((x) => cols.map((c) => x[c]))).toEqual(reference.map((x) => cols.map((c) => x[c])));
  });
});
