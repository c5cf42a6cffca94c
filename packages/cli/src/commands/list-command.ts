import { knownHardware, knownModels } from '@blis/latency';
import { listPolicies } from '@blis/policies';
import { stringifyResult } from '../output/json-output.js';

/** `blis models` and `blis policies`: the catalogue as JSON on stdout. */
export function runListCommand(what: 'models' | 'policies'): void {
  if (what === 'models') {
    process.stdout.write(stringifyResult({ models: knownModels(), hardware: knownHardware() }));
  } else {
    process.stdout.write(stringifyResult(listPolicies()));
  }
}
