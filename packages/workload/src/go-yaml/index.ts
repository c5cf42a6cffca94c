export { type GoYamlNode, goBool, goFloat, goFloatMap, goInt, goSeq, goStr, goStruct } from './go-yaml-node.js';
export { goFloatText } from './go-float-text.js';
export { goSortedEntries, goYamlKeyLess } from './go-yaml-key-order.js';
export { goYamlString } from './go-yaml-string.js';
export { goYamlDocument } from './go-yaml-emit.js';
