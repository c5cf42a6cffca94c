/**
 * A custom P/D decider: disaggregate (prefill on a prefill pod, then ship the KV cache to the
 * decode pod) only prompts longer than `minPromptTokens` (default 512).
 *
 * Why. Splitting a request costs a KV transfer; it pays off when the prefill is long enough to
 * stall the decode pod's running batch. Short prompts are cheaper to prefill where they will be
 * decoded. Unlike BLIS's `prefix-threshold`, this rule ignores what the decode pod has cached,
 * which makes it a baseline to compare `prefix-threshold` against.
 *
 * The decider runs after the decode router has chosen a pod (`selected`, a position in
 * `state.instances`, the decode pool); this one does not need it.
 */
import type {
  DeciderFactory,
  DisaggregationDecider,
  DisaggregationDecision,
  PolicyFactoryContext,
  RequestView,
} from '@blis/policies';

export const DECIDER_NAME = 'long-prompt';

/** Parameters, when the decider is built through a registry or `simulate()` (or from the CLI's `--policy-param`). */
export interface LongPromptParams {
  /** Prompts with more input tokens than this are disaggregated (integer >= 0, default 512). */
  readonly minPromptTokens?: number;
}

function readParams(params: Readonly<Record<string, unknown>>): Required<LongPromptParams> {
  for (const key of Object.keys(params)) {
    if (key !== 'minPromptTokens') throw new Error(`${DECIDER_NAME}: unknown parameter "${key}" (known: minPromptTokens)`);
  }
  const minPromptTokens = params.minPromptTokens ?? 512;
  if (typeof minPromptTokens !== 'number' || !Number.isInteger(minPromptTokens) || minPromptTokens < 0) {
    throw new Error(`${DECIDER_NAME}: params.minPromptTokens must be an integer >= 0, found ${JSON.stringify(minPromptTokens)}`);
  }
  return { minPromptTokens };
}

// Shared, frozen answers: the decider runs once per request and need not allocate.
const SPLIT: DisaggregationDecision = Object.freeze({ disaggregate: true, reason: `${DECIDER_NAME}:disaggregate` });
const LOCAL: DisaggregationDecision = Object.freeze({ disaggregate: false, reason: `${DECIDER_NAME}:local` });

/** The decider factory: BLIS calls it once per run. */
export function createLongPromptDecider(ctx: PolicyFactoryContext): DisaggregationDecider {
  const { minPromptTokens } = readParams(ctx.params);
  return {
    name: DECIDER_NAME,
    decide: (request: RequestView) => (request.inputTokens > minPromptTokens ? SPLIT : LOCAL),
  };
}

// `--pd-decider ./dist/long-prompt-decider.js` loads the module's default export as the factory.
const factory: DeciderFactory = createLongPromptDecider;
export default factory;
