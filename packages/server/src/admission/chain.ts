/**
 * The admission chain: every mutating phase of the plugins in order, then (after defaulting,
 * the kind's strategy and validation) every validating phase in order, as kube-apiserver runs
 * its admission plugins. The first rejection ends the request.
 *
 * A phase stays synchronous while its plugins are: the write path reads the store and commits in
 * one turn of the event loop for ordinary requests (api/steps.ts), and an await of nothing
 * would let other requests run in between. Only an async plugin (a webhook) makes the phase async.
 */
import type { AdmissionAttributes, AdmissionOperation } from "./attributes.js";
import type { AdmissionContext } from "./context.js";
import type { AdmissionPlugin } from "./plugin.js";
import { newReinvocationContext } from "./reinvocation.js";

type Phase = "admit" | "validate";

export class AdmissionChain {
  /**
   * The plugins that have each phase and handle an operation, in order, listed the first time the
   * operation comes (a plugin's `handles` answers for a fixed set of operations, plugin.ts). Most
   * plugins act on a few kinds only: a write no longer asks each of them, one call apiece, whether
   * it handles the operation, which cost every write while the JIT was still cold.
   */
  private readonly handling: Readonly<Record<Phase, Map<AdmissionOperation, readonly AdmissionPlugin[]>>> = {
    admit: new Map(),
    validate: new Map(),
  };

  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  private pluginsFor(phase: Phase, operation: AdmissionOperation): readonly AdmissionPlugin[] {
    let list = this.handling[phase].get(operation);
    if (list === undefined) {
      list = this.plugins.filter((p) => p[phase] !== undefined && p.handles(operation));
      this.handling[phase].set(operation, list);
    }
    return list;
  }

  /** The plugin names in the order they run, for docs and tests. */
  get names(): readonly string[] {
    return this.plugins.map((p) => p.name);
  }

  /**
   * The mutating phase; a promise only when a plugin answered with one. It runs a second time when
   * a reinvocable plugin changed the object (reinvocation.ts), as upstream's chain does.
   */
  admit(attributes: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void> {
    // The same object and warnings: plugins change `object` in place and append to `warnings`.
    const reinvocation = attributes.reinvocation ?? newReinvocationContext();
    // Object.assign, not a spread: the copy gains a key (api/copy.ts cloneToExtend).
    const a = attributes.reinvocation ? attributes : Object.assign({}, attributes, { reinvocation });
    const first = this.run("admit", 0, a, ctx);
    return first ? first.then(() => this.again(a, ctx)) : this.again(a, ctx);
  }

  /** The second run of the mutating phase, when a reinvocable plugin asked for one in the first. */
  private again(a: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void> {
    const reinvocation = a.reinvocation;
    if (!reinvocation?.shouldReinvoke || reinvocation.isReinvoke) return;
    reinvocation.isReinvoke = true;
    return this.run("admit", 0, a, ctx);
  }

  /** The validating phase; a promise only when a plugin answered with one. */
  validate(attributes: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void> {
    return this.run("validate", 0, attributes, ctx);
  }

  private run(
    phase: Phase,
    from: number,
    a: AdmissionAttributes,
    ctx: AdmissionContext,
  ): void | Promise<void> {
    const plugins = this.pluginsFor(phase, a.operation);
    for (let i = from; i < plugins.length; i++) {
      const p = plugins[i] as AdmissionPlugin;
      // pluginsFor lists only plugins that have the phase.
      const pending = phase === "admit" ? p.admit?.(a, ctx) : p.validate?.(a, ctx);
      if (pending) return pending.then(() => this.run(phase, i + 1, a, ctx));
    }
  }
}
