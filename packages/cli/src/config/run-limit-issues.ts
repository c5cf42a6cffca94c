import { formatParamPath } from '@blis/policies/internal';
import type { RunLimitIssue } from '@blis/cluster';
import { configOrigin } from './config-origins.js';
import type { UsageIssue } from '../errors/usage-error.js';

/**
 * The flag each config field a limit checks comes from, unless a file gave it (config-origins).
 * Without one (a field only a library caller sets) the issue names the config field.
 */
const FLAG_OF: Readonly<Record<string, string>> = {
  numInstances: '--num-instances',
  totalKVBlocks: '--total-kv-blocks',
  kvCpuBlocks: '--kv-cpu-blocks',
  maxNumSeqs: '--max-num-seqs',
  'autoscaling.maxReplicas': '--autoscaler-max',
  'autoscaling.intervalUs': '--model-autoscaler-interval-us',
  blockSizeTokens: '--block-size-in-tokens',
  horizonUs: '--horizon',
  'workload.rate': '--rate',
  'workload.numRequests': '--num-requests',
  'workload.maxRequests': '--max-requests',
  'workload.promptTokens': '--prompt-tokens',
  'workload.promptTokensMin': '--prompt-tokens-min',
  'workload.promptTokensMax': '--prompt-tokens-max',
  'workload.outputTokens': '--output-tokens',
  'workload.outputTokensMin': '--output-tokens-min',
  'workload.outputTokensMax': '--output-tokens-max',
  'workload.prefixTokens': '--prefix-tokens',
};

/** A run-limit refusal as the CLI says it: the flag, or the file and its field. */
export function runLimitUsageIssues(issues: readonly RunLimitIssue[]): UsageIssue[] {
  return issues.map((i) => {
    const field = formatParamPath(i.path, '');
    let where: string;
    if (i.file !== undefined) where = `${i.file}${field === '' ? '' : ` ${field}`}`;
    else if (field === '') where = 'memory estimate';
    else where = configOrigin(field) ?? FLAG_OF[field] ?? `config ${field}`;
    return { where, expected: i.expected, found: i.found };
  });
}
