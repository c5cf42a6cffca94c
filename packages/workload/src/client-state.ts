import { type GapSampler, gapSampler } from './arrivals.js';
import { clientRatesPerUs } from './blis-draws.js';
import { lengthSampler } from './distributions.js';
import { GoRand } from './go-rand/go-rand.js';
import { type MultimodalSampler, multimodalSampler } from './multimodal/multimodal-tokens.js';
import type { Lengths } from './sessions/session-draws.js';
import type { LoadedSpec } from './spec-load.js';
import type { ClientSpec } from './spec-schema.js';

/** What a spec's request stream keeps per client while it generates. */
export interface ClientState {
  spec: ClientSpec;
  index: number;
  /** The client's own Go generator (seeded from BLIS's `workload-gen` stream); undefined for a client that sends nothing. */
  rng: GoRand | undefined;
  gap: GapSampler;
  lengths: Lengths;
  /** The client's multimodal prompts, drawn in place of `lengths.input`; undefined for text prompts. */
  multimodal: MultimodalSampler | undefined;
  /** Shared prefix tokens in front of every prompt: the group's length, or 0 outside a group. */
  prefixLength: number;
  /** Arrival of the client's pending open-loop request (whole µs). */
  time: number;
  /** Requests generated, every placed session round counted (BLIS's per-client cap of 2 × num_requests). */
  generated: number;
}

/**
 * Every client's generation state, in spec order. Each client that sends draws its generator's
 * seed from `workload` in that order (BLIS skips one that sends nothing before drawing); on the
 * per-window generator (`perWindow`) a client sends when it has lifecycle windows, otherwise when
 * its rate is above 0. `groupLength` is each prefix group's length; `file` names the spec in errors.
 */
export function clientStates(spec: LoadedSpec, workload: GoRand, groupLength: ReadonlyMap<string, number>, perWindow: boolean, file: string): ClientState[] {
  const rates = clientRatesPerUs(spec);
  return spec.clients.map((c, i) => {
    // A client that sends nothing draws no seed (BLIS skips it before drawing).
    const sends = perWindow ? c.lifecycle !== undefined : rates[i] > 0;
    return {
      spec: c,
      index: i,
      rng: sends ? GoRand.fromSeed(workload.int63()) : undefined,
      gap: gapSampler(c.arrival, rates[i]),
      lengths: { input: lengthSampler(c.input_distribution, spec.baseDir), output: lengthSampler(c.output_distribution, spec.baseDir) },
      multimodal: c.multimodal === undefined ? undefined : multimodalSampler(c.multimodal, spec.baseDir, { file, field: `clients[${i}].multimodal` }),
      prefixLength: c.prefix_group !== undefined ? groupLength.get(c.prefix_group)! : 0,
      time: 0,
      generated: 0,
    };
  });
}
