/**
 * Reinvocation across the mutating plugins, as upstream's admission chain does it
 * (k8s.io/apiserver admission's reinvoker): the whole mutating phase runs once more when a plugin
 * that supports reinvocation (MutatingAdmissionPolicy, MutatingAdmissionWebhook) changed the
 * object; in that second run each of them calls again only its `IfNeeded` invocations that a later
 * change (its own plugin's, or any other plugin's since it last ran) may have made stale. Never a
 * third run, so invocations that keep changing the object cannot loop.
 */
import { isDeepStrictEqual } from "node:util";

/** One request's reinvocation state, shared by the plugins of its mutating phase. */
export interface ReinvocationContext {
  /** True during the second run of the mutating phase. */
  isReinvoke: boolean;
  /** Set when a reinvocable plugin changed the object: the phase runs once more. */
  shouldReinvoke: boolean;
  /** Each reinvocable plugin's own state, by plugin name. */
  readonly plugins: Map<string, PluginReinvocation>;
}

export function newReinvocationContext(): ReinvocationContext {
  return { isReinvoke: false, shouldReinvoke: false, plugins: new Map() };
}

/**
 * A reinvocable plugin's view (upstream's webhookReinvokeContext / policyReinvokeContext): the
 * `IfNeeded` invocations made since the last change, those to make again, and the object as the
 * plugin last left it.
 */
export class PluginReinvocation {
  private previouslyInvoked = new Set<string>();
  private readonly again = new Set<string>();
  private lastOutput: unknown;

  private constructor(private readonly shared: ReinvocationContext) {}

  /** The plugin's state for this request (fresh when there is no shared context: no reinvocation). */
  static of(shared: ReinvocationContext | undefined, plugin: string): PluginReinvocation {
    if (shared === undefined) return new PluginReinvocation(newReinvocationContext());
    let state = shared.plugins.get(plugin);
    if (state === undefined) {
      state = new PluginReinvocation(shared);
      shared.plugins.set(plugin, state);
    }
    return state;
  }

  /** At the start of the plugin's run: in the second run, others' changes since its first make its IfNeeded invocations stale. */
  begin(object: unknown): void {
    if (this.shared.isReinvoke && !isDeepStrictEqual(object, this.lastOutput)) this.requireAgain();
  }

  /** Whether the invocation `key` runs now: always in the first run, in the second only when stale. */
  shouldInvoke(key: string): boolean {
    return !this.shared.isReinvoke || this.again.has(key);
  }

  /** After an invocation: a change makes the IfNeeded invocations before it stale and asks for a second run. */
  invoked(key: string, changed: boolean, ifNeeded: boolean): void {
    if (changed) {
      this.requireAgain();
      this.shared.shouldReinvoke = true;
    }
    if (ifNeeded) this.previouslyInvoked.add(key);
  }

  /**
   * At the end of the plugin's run, with the object as it leaves it. Kept only when a second run
   * could read it: after the first run, and when some IfNeeded invocation could go stale (else
   * `begin` has nothing to mark), which spares the copy on every request without such a policy.
   */
  end(object: unknown): void {
    const needed = !this.shared.isReinvoke && this.previouslyInvoked.size > 0;
    this.lastOutput = needed ? structuredClone(object) : undefined;
  }

  private requireAgain(): void {
    for (const key of this.previouslyInvoked) this.again.add(key);
    this.previouslyInvoked = new Set();
  }
}
