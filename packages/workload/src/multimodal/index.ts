export { MEDIA, type Medium, MultimodalSchema, type MultimodalSpec } from './multimodal-schema.js';
export { type MultimodalOrigin, type MultimodalPrompt, type MultimodalSampler, multimodalSampler } from './multimodal-tokens.js';
