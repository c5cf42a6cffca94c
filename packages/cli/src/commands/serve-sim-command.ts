import { quoteExcerpt } from '@blis/policies/internal';
import { startSimServer } from '@blis/observe';
import { buildConfig } from '../config/build-config.js';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { customRuntime, preparePolicies } from '../policy-modules/index.js';
import { policyCheckRuntime } from '../config/policy-check-flags.js';
import { UsageError } from '../errors/usage-error.js';
import { memoryLimit } from './machine-memory.js';

/**
 * `blis serve-sim`: the simulator as an OpenAI-compatible server. Prints `{"url": ...}` on stdout
 * once listening (so a script can start it on port 0 and read where it is), logs on stderr, and
 * stops on SIGINT or SIGTERM.
 */
export async function runServeSimCommand(defs: readonly FlagDef[], rawOpts: Record<string, unknown>): Promise<void> {
  const flags = parseFlags(defs, rawOpts);
  const setup = await preparePolicies(flags);
  // The workload is never read: requests come over HTTP.
  const config = buildConfig(flags, { kind: 'synthetic', numRequests: 1 }, setup);
  const runtime = {
    ...customRuntime(setup, {
      seed: (flags.seed as number | undefined) ?? 42,
      numInstances: config.numInstances ?? 1,
      blockSizeTokens: (flags.blockSizeInTokens as number | undefined) ?? 16,
    }),
    ...policyCheckRuntime(flags),
    memoryLimit: memoryLimit(flags.ignoreMemoryLimit === true),
  };
  const port = (flags.port as number | undefined) ?? 8000;
  // A TCP port is 16 bits: Node throws a RangeError from listen() for anything above.
  if (port > 65535) throw new UsageError([{ where: '--port', expected: 'a TCP port from 0 to 65535 (0 = any free port)', found: String(port) }]);
  const host = (flags.host as string | undefined) ?? '127.0.0.1';
  // A dotted quad with an octet over 255 is no address; refused without asking a resolver.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && host.split('.').some((o) => Number(o) > 255))
    throw new UsageError([{ where: '--host', expected: 'an address or a host name that resolves on this machine', found: quoteExcerpt(host) }]);
  let served = 0;
  const server = await startSimServer({
    config,
    runtime,
    host,
    port,
    servedModelName: flags.servedModelName as string | undefined,
    defaultOutputTokens: flags.defaultOutputTokens as number | undefined,
    maxOutputTokens: flags.maxOutputTokens as number | undefined,
    onResponseEnd: () => served++,
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL')
      throw new UsageError([{ where: e.code === 'EADDRNOTAVAIL' ? '--host' : '--port', expected: 'an address and port this process can listen on', found: `${e.code} (${e.message})` }]);
    // A host name that does not resolve (or is no address at all, 999.1.1.1) is the user's.
    if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
      throw new UsageError([{ where: '--host', expected: 'an address or a host name that resolves on this machine', found: quoteExcerpt(host) }]);
    throw e;
  });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const quiet = flags.quiet === true;
  if (!quiet)
    process.stderr.write(`blis: serve-sim: ${config.numInstances ?? 1} simulated instance(s) of ${config.model ?? 'the default model'} on ${server.url} (/v1/completions, /v1/chat/completions, /v1/models, /metrics); Ctrl-C stops\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  if (!quiet) process.stderr.write(`blis: serve-sim: stopped after ${server.simulation.size} request(s), ${served} response(s) finished\n`);
}
