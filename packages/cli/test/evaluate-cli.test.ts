import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateCli, rejects } from './blis-process.js';

const request = (candidate: Record<string, unknown>, id = 's') =>
  JSON.stringify({
    protocol: 'blis-eval/1',
    candidate,
    base_config: { numInstances: 2 },
    scenarios: [{ id, workload: { kind: 'synthetic', numRequests: 30, rate: 5 }, seeds: [7] }],
    trace: 'none',
  });

describe('blis evaluate', () => {
  it('answers one request on stdin with exactly one JSON line, the same bytes each time', async () => {
    const a = await evaluateCli([], request({ kind: 'policy-yaml', text: 'routing:\n  policy: least-loaded\n' }));
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout.endsWith('\n')).toBe(true);
    expect(a.stdout.trimEnd().split('\n')).toHaveLength(1);
    const r = JSON.parse(a.stdout) as { status: string; combined_score: number };
    expect(r.status).toBe('ok');
    const b = await evaluateCli([], request({ kind: 'policy-yaml', text: 'routing:\n  policy: least-loaded\n' }));
    expect(b.stdout).toBe(a.stdout);
  });

  it('answers an invalid candidate with exit 0', async () => {
    const r = await evaluateCli([], request({ kind: 'policy-yaml', text: 'routing: [' }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'invalid_candidate', combined_score: 0 });
  });

  it('reads --request FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blis-eval-'));
    const file = join(dir, 'req.json');
    writeFileSync(file, request({ kind: 'baseline' }));
    const r = await evaluateCli(['--request', file], '');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok' });
  });

  it('refuses a malformed request: exit 2, nothing on stdout, the field named', async () => {
    const notJson = await evaluateCli([], '{"protocol": ');
    expect(notJson.code).toBe(2);
    expect(notJson.stdout).toBe('');
    // Located, in our words: V8's own ("Unexpected end of JSON input") is not shown.
    expect(notJson.stderr).toBe("blis: stdin:1:14: expected one blis-eval/1 request as JSON: a JSON value (an object, a list, a string, a number, true, false or null), found the end of the input\n");
    const badProtocol = await evaluateCli([], request({ kind: 'baseline' }).replace('blis-eval/1', 'blis-eval/9'));
    expect(badProtocol.code).toBe(2);
    expect(badProtocol.stdout).toBe('');
    expect(badProtocol.stderr).toBe('blis: stdin request.protocol: expected "blis-eval/1", found "blis-eval/9"\n');
    const empty = await evaluateCli([], '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('blis: stdin: expected one blis-eval/1 request as JSON, found nothing\n');
  });

  it('refuses --request with --serve', async () => {
    await rejects(expect, ['evaluate', '--serve', '--request', 'x.json'], '--request: expected no --request with --serve (requests arrive on stdin, one per line), found "x.json"');
  });

  it('--serve answers each line in order, an invalid line included, until stdin closes', async () => {
    const lines = [request({ kind: 'baseline' }, 'first'), '', 'not json', request({ kind: 'policy-yaml', text: 'routing:\n  policy: round-robin\n' }, 'third')];
    const r = await evaluateCli(['--serve'], `${lines.join('\n')}\n`);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; per_scenario?: { id: string }[] });
    expect(out.map((o) => o.status)).toEqual(['ok', 'invalid_request', 'ok']);
    expect(out[0].per_scenario?.[0].id).toBe('first');
    expect(out[1]).toMatchObject({ combined_score: 0, per_scenario: [], error: { kind: 'invalid_request' } });
    expect(out[2].per_scenario?.[0].id).toBe('third');
    // The same request gives the same line in persistent mode as in one-shot mode.
    const single = await evaluateCli([], lines[0]);
    expect(r.stdout.split('\n')[0]).toBe(single.stdout.trimEnd());
  });

  it('--serve writes every answer before it exits, more than a pipe holds at once', async () => {
    // Some 200 KB of answers: the pipe takes 64 KB at a time, so the last ones are still queued
    // in the process when its input ends.
    const lines = Array.from({ length: 60 }, (_, i) => request({ kind: 'baseline' }, `s${i}`));
    const r = await evaluateCli(['--serve'], `${lines.join('\n')}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(128 * 1024);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; per_scenario: { id: string }[] });
    expect(out.map((o) => o.per_scenario[0].id)).toEqual(lines.map((_, i) => `s${i}`));
  });

  it('--serve answers a line over the 16 MiB request limit as invalid and goes on with the next', async () => {
    const huge = `{"protocol":"blis-eval/1","pad":"${'x'.repeat(16 * 1024 * 1024)}"}`;
    const r = await evaluateCli(['--serve'], `${huge}\n${request({ kind: 'baseline' }, 'after')}\n`);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; error?: { message?: string }; per_scenario?: { id: string }[] });
    expect(out.map((o) => o.status)).toEqual(['invalid_request', 'ok']);
    expect(JSON.stringify(out[0])).toContain('stdin:1: expected a blis-eval/1 request (JSON) of at most 16 MiB per line, found a longer line');
    expect(out[1].per_scenario?.[0].id).toBe('after');
  });

  it('a candidate that never returns is answered timeout at max_wall_ms, one-shot and in --serve, which goes on', async () => {
    const spin = (id: string) =>
      JSON.stringify({ ...JSON.parse(request({ kind: 'policy-module', language: 'javascript', text: "export default () => ({ name: 'spin', route() { while (true) {} } });" }, id)), max_wall_ms: 500 });
    const one = await evaluateCli([], spin('once'));
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ status: 'timeout', combined_score: 0 });
    expect(JSON.parse(one.stdout).error.message).toMatch(/stopped in routing policy "spin" \(candidate\.mjs\): route\(\) for request 0/);
    const r = await evaluateCli(['--serve'], `${spin('stuck')}\n${request({ kind: 'baseline' }, 'after')}\n`);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { status: string; per_scenario: { id: string }[] });
    expect(out.map((o) => o.status)).toEqual(['timeout', 'ok']);
    expect(out[1].per_scenario[0].id).toBe('after');
  });
});
