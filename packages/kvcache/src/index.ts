export { ROOT_HASH, chainHash, hashString, contentKey, fillBlockHashes } from './block-hash.js';
