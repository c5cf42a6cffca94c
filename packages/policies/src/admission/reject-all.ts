import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';

const REJECTED: AdmissionDecision = Object.freeze({ admit: false, reason: 'reject-all' });

/** Rejects every request (pathological template for testing). */
export function createRejectAll(): AdmissionPolicy {
  return { name: 'reject-all', admit: () => REJECTED };
}
