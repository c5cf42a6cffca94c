import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';

const ADMITTED: AdmissionDecision = Object.freeze({ admit: true, reason: '' });

/** Admits every request (BLIS default). */
export function createAlwaysAdmit(): AdmissionPolicy {
  return { name: 'always-admit', admit: () => ADMITTED };
}
