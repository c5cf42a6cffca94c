/**
 * A WorkloadSpec v2 of one poisson client `a` (10-token prompts, 5-token answers, seed 1):
 * `head` gives the top-level rate and size keys, `client` more lines of the client.
 */
export function oneClientSpec(head: string, client = ''): string {
  return `version: "2"
seed: 1
${head}clients:
  - id: a
    rate_fraction: 1
    arrival: {process: poisson}
    input_distribution: {type: constant, params: {value: 10}}
    output_distribution: {type: constant, params: {value: 5}}
${client}`;
}
