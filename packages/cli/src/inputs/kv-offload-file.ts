import { type KVOffloadConfig, type KVOffloadConfigOptions, type KVOffloadDeviceClasses, parseKVOffloadConfig } from '@blis/cluster';
import { requireReadable } from './input-files.js';
import { UsageError } from '../errors/usage-error.js';
import { readYamlSource, usageIssueOf } from './yaml-file.js';

/** An offload file's text parsed by @blis/cluster, its problems thrown as one UsageError. */
export function kvOffloadConfigOf(text: string, path: string, options: KVOffloadConfigOptions): KVOffloadConfig {
  const r = parseKVOffloadConfig(text, path, options);
  if (!r.ok) throw new UsageError(r.issues.map(usageIssueOf));
  return r.config;
}

/** Reads a --kv-offload-config file: one top-level `kv_offload:` block, BLIS's keys, nothing else. */
export function loadKVOffloadFile(path: string, blockSizeTokens: number, deviceClasses?: KVOffloadDeviceClasses): KVOffloadConfig {
  requireReadable('--kv-offload-config', path, 'KV offload configuration file');
  return kvOffloadConfigOf(readYamlSource(path, 'KV offload configuration'), path, { blockSizeTokens, deviceClasses });
}
