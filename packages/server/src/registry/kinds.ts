/**
 * The built-in kinds with behaviour of their own: the list is generated from the strategy files
 * (registry/<group>/<resource>.ts) by `pnpm gen:kinds` into kinds.generated.ts.
 */
import { KIND_STRATEGIES } from "./kinds.generated.js";
import type { KindStrategy } from "./strategy.js";

export { KIND_STRATEGIES };

const BY_RESOURCE = new Map(KIND_STRATEGIES.map((s) => [`${s.group}/${s.resource}`, s]));

/** The kind's strategy; undefined for kinds with only the generic behaviour. */
export function strategyFor(group: string, resource: string): KindStrategy | undefined {
  return BY_RESOURCE.get(`${group}/${resource}`);
}
