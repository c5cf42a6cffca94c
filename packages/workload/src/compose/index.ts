export { composeSpecs, type ComposedSpec } from './compose-specs.js';
export { mixedSloClassIssues, type ComposeIssue } from './compose-checks.js';
