export { composeSpecs, type ComposedSpec } from './compose-specs.js';
export { goYamlDocument } from './go-yaml-emit.js';
export { type GoYamlNode, goFloatText, goYamlKeyLess } from './go-yaml-node.js';
export { goYamlString } from './go-yaml-scalar.js';
export { mixedSloClassIssues, type ComposeIssue } from './compose-checks.js';
