import { AdapterCost } from '@blis/engine/internal';
import { type LoraConfig, loraSettings } from './lora-schema.js';

/** HBM the adapter slots of one instance take from a derived KV budget, bytes; 0 with LoRA off. */
export function loraReservedBytes(c: LoraConfig | undefined): number {
  const s = loraSettings(c);
  return s === undefined ? 0 : new AdapterCost(s).reservedBytes();
}
