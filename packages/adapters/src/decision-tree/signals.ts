/**
 * The signals a decision tree may test, per policy kind: exactly what the policy's real views
 * carry (RequestView, RouterState, InstanceSnapshot, AutoScaleContext), and never a request's
 * output length (the router cannot know how long an answer will be).
 */

/** The policy a decision tree stands for. */
export type DecisionTreeKind = 'admission' | 'priority' | 'routing' | 'autoscaler';

/** The decision-tree kinds, in the order the docs list them. */
export const DECISION_TREE_KINDS: readonly DecisionTreeKind[] = ['admission', 'priority', 'routing', 'autoscaler'];

/** What a signal's values are, which decides the operators and values a condition may use. */
export type DecisionTreeSignalType = 'number' | 'string' | 'boolean';

/** One entry of {@link DECISION_TREE_SIGNALS}. */
export interface DecisionTreeSignal {
  readonly type: DecisionTreeSignalType;
  /** One line for docs and error messages. */
  readonly description: string;
  /** The only values a string signal takes (conditions comparing it to others are errors). */
  readonly values?: readonly string[];
  /** A per-instance signal of a routing tree: only in a leaf's `by` and `where`. */
  readonly instance?: boolean;
  /** Its value changes as time passes, so a priority that reads it must be re-scored. */
  readonly timeDependent?: boolean;
}

/** The SLO classes of WorkloadSpec v2, and '' for a request whose workload names none. */
const SLO_CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background', ''] as const;

/** Signal name -> its entry. */
export type DecisionTreeSignalCatalogue = Readonly<Record<string, DecisionTreeSignal>>;

const num = (description: string, extra: Partial<DecisionTreeSignal> = {}): DecisionTreeSignal => ({ type: 'number', description, ...extra });
const str = (description: string, values?: readonly string[]): DecisionTreeSignal => (values ? { type: 'string', description, values } : { type: 'string', description });

const REQUEST: DecisionTreeSignalCatalogue = {
  'request.input_tokens': num('prompt length in tokens'),
  'request.input_blocks': num("full KV blocks of the prompt (the length of its block-hash chain)"),
  'request.slo_class': str("the workload's SLO class ('' when it names none)", SLO_CLASSES),
  'request.slo_target_us': num("the request's TTFT target in µs (0 when none)"),
  'request.tenant_id': str('tenant identifier'),
  'request.client_id': str('client identifier (the workload client that generated it)'),
  'request.session_id': str("session identifier ('' outside sessions)"),
  'request.prefix_group': str("shared-prefix group ('' when none)"),
  'request.round_index': num('round of its session (0 for the first, and outside sessions)'),
  'request.streaming': { type: 'boolean', description: 'true when the client streams the answer' },
  'request.arrival_us': num('arrival time in µs'),
  'request.age_us': num('µs since arrival (now - arrival)', { timeDependent: true }),
  'request.adapter': str("the LoRA adapter it asks for ('' for the base model)"),
};

const TENANT: DecisionTreeSignalCatalogue = {
  'tenant.requests': num("requests seen from the request's tenant so far"),
  'tenant.in_flight': num("the tenant's admitted requests not yet completed"),
  'tenant.recent_rate': num("the tenant's arrival rate over the recent window, requests/s"),
};

const GLOBAL: DecisionTreeSignalCatalogue = {
  'global.now_us': num('simulated time in µs'),
  'global.in_flight': num('admitted requests not yet completed, over all instances'),
  'global.recent_rate': num('cluster arrival rate over the recent window, requests/s'),
  'global.saturation': num('pool saturation as flow control computes it (mean over instances)'),
  'global.instances': num('instances the router may choose from'),
  'global.avg_queue_depth': num('mean wait-queue length over those instances'),
  'global.avg_kv_utilization': num('mean KV cache utilisation (0..1) over those instances'),
};

const instance = (description: string): DecisionTreeSignal => ({ type: 'number', description, instance: true });

const INSTANCE: DecisionTreeSignalCatalogue = {
  'instance.index': instance('position of the instance in the routable list'),
  'instance.queue_depth': instance('requests in its wait queue (as of its last snapshot)'),
  'instance.batch_size': instance('requests in its running batch (as of its last snapshot)'),
  'instance.in_flight_requests': instance('requests routed to it and not yet completed (always current)'),
  'instance.load': instance('queue_depth + batch_size + in_flight_requests (BLIS effective load)'),
  'instance.kv_utilization': instance('share of its KV blocks in use, 0..1'),
  'instance.free_kv_blocks': instance('free KV blocks'),
  'instance.total_kv_blocks': instance('KV blocks of its cache'),
  'instance.cache_hit_rate': instance('its prefix-cache hit rate so far, 0..1'),
  'instance.prefix_hit_blocks': instance("leading blocks of the request's prompt its cache holds now"),
  'instance.prefix_hit_ratio': instance('prefix_hit_blocks / request.input_blocks (0 for a prompt without full blocks)'),
  'instance.snapshot_age_us': instance('µs since its load signals were read (their staleness)'),
  'instance.adapter_resident': instance("1 when its resident LoRA adapters (as of its last snapshot) hold the request's adapter, else 0 (0 for a base-model request)"),
};

const AUTOSCALER: DecisionTreeSignalCatalogue = {
  'group.pool': str('the scaling group: monolithic, or the P/D pool being scaled', ['monolithic', 'prefill', 'decode']),
  'time.now_us': num('simulated time in µs'),
  'time.since_last_scale_us': num("µs since this group's last applied scale action (infinite before the first)"),
  'replicas.current': num('routable plus pending replicas (what a scale decision changes)'),
  'replicas.routable': num('replicas warming up or active'),
  'replicas.active': num('replicas past warm-up'),
  'replicas.warming_up': num('replicas still warming up'),
  'replicas.pending': num('replicas placed or waiting for a node, not yet routable'),
  'replicas.draining': num('replicas being drained'),
  'replicas.min': num('the lower bound on replicas'),
  'replicas.max': num('the upper bound on replicas (infinite when unbounded)'),
  'replicas.cost_per_hour': num('dollars per hour of the routable replicas'),
  'load.avg_queue_depth': num('mean queue depth over the routable replicas (0 when none)'),
  'load.avg_kv_utilization': num('mean KV utilisation over the routable replicas, 0..1'),
  'load.in_flight': num('requests in flight on the routable replicas'),
  'load.waiting_requests': num('admitted requests waiting for a routable replica, plus the gateway queue'),
  'load.request_rate': num('cluster arrivals per second over the last second'),
  'load.kv_tokens_in_use': num('KV tokens held on the routable replicas'),
  'load.kv_capacity_tokens': num('KV capacity in tokens of the routable replicas'),
  'load.pending_kv_capacity_tokens': num('KV capacity in tokens of the pending replicas'),
  'slo.attainment': num('share of requests completed since the last evaluation that met their targets (NaN when none: only != holds)'),
  'trend.request_rate': num('load.request_rate minus its value at the oldest remembered evaluation (0 without history)'),
  'trend.avg_queue_depth': num('load.avg_queue_depth minus its oldest remembered value (0 without history)'),
  'trend.avg_kv_utilization': num('load.avg_kv_utilization minus its oldest remembered value (0 without history)'),
};

const ROUTING_REQUEST: DecisionTreeSignalCatalogue = {
  ...REQUEST,
  'request.priority': num('the score the priority policy gave it (higher = more urgent)'),
};

/**
 * The signal catalogue per kind, with a one-line description each. Admission sees the request,
 * its tenant and the cluster; priority the request alone (a priority policy is given no router
 * state); routing adds the request's priority and, in leaves, each instance; the autoscaler sees
 * its scaling group's aggregates and no request.
 */
export const DECISION_TREE_SIGNALS: Readonly<Record<DecisionTreeKind, DecisionTreeSignalCatalogue>> = {
  admission: { ...REQUEST, ...TENANT, ...GLOBAL },
  priority: { ...REQUEST },
  routing: { ...ROUTING_REQUEST, ...TENANT, ...GLOBAL, ...INSTANCE },
  autoscaler: AUTOSCALER,
};
