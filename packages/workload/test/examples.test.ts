import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { createRequestSource, loadWorkloadSpec } from '@blis/workload';
import { describe, expect, it } from 'vitest';
import { drain } from '../src/testing/index.js';

// The Go BLIS example specs, copied unchanged into examples/workloads (see its PROVENANCE.md),
// and autoscale-step.yaml, written for this repository in BLIS's per-window rate form.
// `blis run` of each is tested in packages/cli/test/workload-cli.test.ts; here, what they generate.
const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples', 'workloads');
const load = (name: string) => loadWorkloadSpec(join(EXAMPLES, name));

const leadingShared = (a: RequestSpec, b: RequestSpec) => {
  let i = 0;
  while (i < a.blockHashes.length && i < b.blockHashes.length && a.blockHashes[i] === b.blockHashes[i]) i++;
  return i;
};

describe('BLIS example workloads', () => {
  it('servegen-language: 500 requests from a bursty batch client (default 50-token prefix) and a chat client', () => {
    const spec = load('servegen-language.yaml');
    expect(spec.clients.map((c) => [c.id, c.slo_class, c.prefix_group, c.prefix_length])).toEqual([
      ['high-volume-batch', 'batch', 'shared-system-prompt', undefined],
      ['realtime-chat', 'critical', undefined, undefined],
    ]);
    const reqs = drain(createRequestSource(spec));
    expect(reqs).toHaveLength(500);
    const batch = reqs.filter((r) => r.clientId === 'high-volume-batch');
    // 50 prefix tokens = 3 full blocks of 16 shared by the whole group.
    expect(leadingShared(batch[0], batch[1])).toBe(3);
    // Network: 2 ms RTT for the batch client, 50 ms for the chat client, plus transfer time.
    expect(batch.every((r) => r.networkDelayUs >= 2000 && r.networkDelayUs < 50_000)).toBe(true);
    expect(reqs.filter((r) => r.clientId === 'realtime-chat').every((r) => r.networkDelayUs >= 50_000 && r.streaming)).toBe(true);
  });

  it('prefix-affinity-demo: the chat client shares its 256-token system prompt (16 blocks)', () => {
    const reqs = drain(createRequestSource(load('prefix-affinity-demo.yaml')));
    expect(reqs).toHaveLength(200);
    const chat = reqs.filter((r) => r.prefixGroup === 'long-system-prompt');
    expect(chat.length).toBeGreaterThan(120);
    for (const r of chat.slice(1)) expect(leadingShared(chat[0], r)).toBe(16);
    const unique = reqs.filter((r) => r.prefixGroup === '');
    expect(leadingShared(unique[0], unique[1])).toBe(0);
  });

  it('autoscale-step (ours): 14 req/s, 56 req/s from 300 s to 900 s, 14 req/s to 1500 s', () => {
    const reqs = drain(createRequestSource(load('autoscale-step.yaml')));
    // ceil(rate × window length) − 1 requests per window (see the file's header).
    const S = 1_000_000;
    const inWindow = (from: number, to: number) => reqs.filter((r) => r.arrivalUs >= from * S && r.arrivalUs < to * S).length;
    expect([inWindow(0, 300), inWindow(300, 900), inWindow(900, 1500)]).toEqual([14 * 300 - 1, 56 * 600 - 1, 14 * 600 - 1]);
    expect(reqs).toHaveLength(46_197);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(reqs.map((r) => r.inputTokens))).toBeCloseTo(512, -1);
    expect(mean(reqs.map((r) => r.outputTokens))).toBeCloseTo(256, -1);
  });

  it('multiturn-chat-demo: 200 sessions of 5 accumulating rounds (as in BLIS), 500 ms apart when answered at once', () => {
    const reqs = drain(createRequestSource(load('multiturn-chat-demo.yaml')));
    // BLIS places every round when its session starts and keeps the first 500 placements: 200
    // sessions start inside them (their later rounds come 500 ms on), and each runs its 5 rounds.
    expect(reqs).toHaveLength(1000);
    const sessions = new Map<string, RequestSpec[]>();
    for (const r of reqs) sessions.set(r.sessionId, [...(sessions.get(r.sessionId) ?? []), r]);
    expect(sessions.size).toBe(200);
    for (const rounds of sessions.values()) {
      expect(rounds.map((r) => r.roundIndex)).toEqual([0, 1, 2, 3, 4]);
      for (let k = 1; k < 5; k++) {
        expect(rounds[k].arrivalUs).toBe(rounds[k - 1].arrivalUs + 500_000);
        expect(leadingShared(rounds[k - 1], rounds[k])).toBe(rounds[k - 1].blockHashes.length);
      }
    }
  });

  it("multimodal (this repository's, docs/workloads.md): BLIS HEAD's 300 requests, with their text, image and audio tokens", () => {
    const reqs = drain(createRequestSource(load('multimodal.yaml')));
    // The requests BLIS f90a1e3a generated from the same spec (packages/cli/test/fixtures/blis-head-epd-multimodal).
    const csv = readFileSync(join(import.meta.dirname, '..', '..', 'cli', 'test', 'fixtures', 'blis-head-epd-multimodal', 'epd-always-generated.csv'), 'utf8').trim().split('\n').slice(1);
    expect(reqs.map((r) => [r.arrivalUs, r.clientId, r.inputTokens, r.outputTokens, r.modalities?.text ?? 0, r.modalities?.image ?? 0, r.modalities?.audio ?? 0, r.modalities?.video ?? 0].join(','))).toEqual(csv);
    expect(reqs.filter((r) => r.modalities !== undefined).every((r) => r.clientId === 'vision' && r.modalities!.image % 576 === 0 && r.modalities!.image > 0)).toBe(true);
  });
});
