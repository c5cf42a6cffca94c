import type { BadInputCase } from './bad-input-case.js';

// Issue 38: --dp, --enable-expert-parallel and --moe-comm-backend, refused where BLIS refuses
// them (a dense model, a latency model other than trained-physics, DP below 1) and where they
// would change nothing (a backend at DP 1, an all-to-all backend without expert parallelism).

const RUN = ['run', '--num-requests', '5'];
const MOE = [...RUN, '--model', 'qwen/qwen3-30b-a3b', '--hardware', 'H100'];
const DENSE = [...RUN, '--model', 'qwen/qwen3-14b'];
const A2A_WITHOUT_EP = (b: string) =>
  `--moe-comm-backend: expected --enable-expert-parallel with ${b} (vLLM runs its all-to-all kernels only with expert parallelism; without it, naive or allgather_reducescatter), found expert parallelism off`;

export const cases: readonly BadInputCase[] = [
  {
    name: 'MoE: --dp on a dense model',
    args: [...DENSE, '--dp', '2'],
    stderr: ["--dp: expected a mixture-of-experts model (at least 2 routed experts; a dense model's data parallelism is --num-instances), found --dp 2 for qwen/qwen3-14b, a dense model"],
    exactLines: true,
  },
  {
    name: 'MoE: --enable-expert-parallel on a dense model',
    args: [...DENSE, '--enable-expert-parallel'],
    stderr: ["--enable-expert-parallel: expected a mixture-of-experts model (at least 2 routed experts; a dense model's data parallelism is --num-instances), found --enable-expert-parallel for qwen/qwen3-14b, a dense model"],
    exactLines: true,
  },
  {
    name: 'MoE: --dp with --latency-model roofline',
    args: [...MOE, '--dp', '2', '--latency-model', 'roofline'],
    stderr: ['--dp: expected --latency-model trained-physics (the only latency model with data/expert-parallel terms), found --dp 2 with --latency-model roofline'],
    exactLines: true,
  },
  {
    name: 'MoE: --enable-expert-parallel with --latency-model blackbox',
    args: [...MOE, '--enable-expert-parallel', '--latency-model', 'blackbox', '--alpha-coeffs', '1,1,1', '--beta-coeffs', '1,1,1'],
    stderr: ['--enable-expert-parallel: expected --latency-model trained-physics (the only latency model with data/expert-parallel terms), found --enable-expert-parallel with --latency-model blackbox'],
    exactLines: true,
  },
  {
    name: 'MoE: --dp where 3 --beta-coeffs select another latency model',
    args: [...MOE, '--dp', '2', '--beta-coeffs', '1,1,1'],
    stderr: ['--dp: expected --latency-model trained-physics (the only latency model with data/expert-parallel terms), found --dp 2 with the roofline latency model these settings select'],
    exactLines: true,
  },
  {
    name: 'MoE: --dp with a P/D pool on roofline',
    args: [...MOE, '--tp', '2', '--dp', '2', '--num-instances', '2', '--prefill-instances', '1', '--decode-instances', '1', '--pd-decider', 'always', '--prefill-latency-model', 'roofline'],
    stderr: ['--dp: expected --prefill-latency-model trained-physics (the only latency model with data/expert-parallel terms), found --dp 2 with --prefill-latency-model roofline'],
    exactLines: true,
  },
  { name: 'MoE: --dp 0', args: [...MOE, '--dp', '0'], stderr: ['--dp: expected a positive integer, found "0"'], exactLines: true },
  { name: 'MoE: --dp with a fraction', args: [...MOE, '--dp', '1.5'], stderr: ['--dp: expected a positive integer, found "1.5"'], exactLines: true },
  {
    name: 'MoE: --moe-comm-backend at --dp 1',
    args: [...MOE, '--enable-expert-parallel', '--moe-comm-backend', 'allgather_reducescatter'],
    stderr: ['--moe-comm-backend: expected --dp > 1 (dispatch/combine runs only between data-parallel ranks; at --dp 1 the MoE output is all-reduced over TP), found --dp 1'],
    exactLines: true,
  },
  { name: 'MoE: an all-to-all --moe-comm-backend without --enable-expert-parallel', args: [...MOE, '--dp', '2', '--moe-comm-backend', 'deepep_low_latency'], stderr: [A2A_WITHOUT_EP('deepep_low_latency')], exactLines: true },
  {
    name: 'MoE: an all-to-all backend at --dp 1 without EP: both problems',
    args: [...MOE, '--moe-comm-backend', 'pplx'],
    stderr: [/^blis: --moe-comm-backend: expected --dp > 1 .*found --dp 1$/, A2A_WITHOUT_EP('pplx')],
    exactLines: true,
  },
  {
    name: 'MoE: an unknown --moe-comm-backend',
    args: [...MOE, '--dp', '2', '--enable-expert-parallel', '--moe-comm-backend', 'nccl'],
    stderr: ['--moe-comm-backend: expected one of naive, allgather_reducescatter, pplx, deepep_high_throughput, deepep_low_latency, mori, flashinfer_all2allv, found "nccl"'],
    exactLines: true,
  },
];
