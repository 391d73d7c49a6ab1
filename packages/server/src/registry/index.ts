/**
 * The registry: one strategy per built-in kind (registry/<group>/<resource>.ts), looked up by
 * group and resource, and the table of built-in resources the server serves with them.
 */
export { builtinResourceTable, toServed } from "./builtin-table.js";
export { KIND_STRATEGIES, strategyFor } from "./kinds.js";
export type { KindStrategy, StrategyContext, WriteStrategy } from "./strategy.js";
