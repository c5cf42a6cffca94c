export {
  createAlwaysEncode,
  createEncodeDecider,
  createMultimodalEncode,
  createNeverEncode,
  ENCODE_DECIDER_NAMES,
  type EncodeDeciderName,
  isMultimodal,
} from './encode-deciders.js';
