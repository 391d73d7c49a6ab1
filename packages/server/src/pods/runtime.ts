/**
 * The pod simulation of the reference server: per-container logs and files, the container a
 * request addresses (validated like the kubelet: pod exists, container named or unique), and the
 * user hooks from `startServer({ pods })`.
 */
import { EventEmitter } from "node:events";
import { errors, StatusError } from "../api/status.js";
import { type PodBehaviour, PodBehaviours, type PodStage } from "../cluster/index.js";
import type { HandlerContext } from "../endpoints/handlers/context.js";
import type { ContainerRef, PodRuntimeOptions, SimulatedUsage } from "./types.js";

export interface LogEntry {
  readonly time: Date;
  readonly text: string;
}

interface ContainerState {
  readonly logs: LogEntry[];
  readonly previous: LogEntry[] | undefined;
  stopped: boolean;
  readonly files: Map<string, Buffer>;
  readonly events: EventEmitter;
}

/** Where a runtime finds pods: the reference server's store, or a kubelet endpoint's own view. */
export interface PodSource {
  pod(namespace: string, name: string): Record<string, unknown> | undefined;
  now(): number;
}

function storeSource(ctx: HandlerContext): PodSource {
  return {
    pod(namespace, name) {
      const r = ctx.resources.find("", "v1", "pods");
      return r
        ? (ctx.store.get(r.bucket, `${namespace}/${name}`) as Record<string, unknown> | undefined)
        : undefined;
    },
    now: () => ctx.now(),
  };
}

export class PodRuntime {
  readonly options: PodRuntimeOptions;
  readonly #ctx: PodSource;
  readonly #containers = new Map<string, ContainerState>();
  /** Usage set with `setUsage` (`ns/pod/container`) and `setNodeUsage` (node name). */
  readonly #usage = new Map<string, SimulatedUsage>();
  readonly #nodeUsage = new Map<string, SimulatedUsage>();
  /** Open streams (exec, attach, port-forward, followed logs), closed on stop. */
  readonly open = new Set<{ close(): void }>();

  readonly #behaviours: PodBehaviours;

  constructor(
    source: HandlerContext | PodSource,
    options: PodRuntimeOptions = {},
    behaviours: PodBehaviours = new PodBehaviours([], options.behaviour),
  ) {
    this.#ctx = "store" in source ? storeSource(source) : source;
    this.options = options;
    this.#behaviours = behaviours;
  }

  /**
   * Sets what one pod of the simulated cluster does from now on (merged over what was set before):
   * e.g. `{ ready: false }` fails its readiness probe, `{ runMs: 0, exitCode: 1 }` ends it now.
   */
  behave(namespace: string, pod: string, behaviour: PodBehaviour): void {
    this.#behaviours.set(namespace, pod, behaviour);
  }

  /** Adds a stage rule (a selector and the behaviour of the pods it selects); later rules win. */
  addStage(stage: PodStage): void {
    this.#behaviours.addStage(stage);
  }

  /** The stored pod and the container a request names; 404/400 Status errors as upstream. */
  resolve(namespace: string, pod: string, container: string | null): ContainerRef {
    const object = this.pod(namespace, pod);
    const spec = (object.spec ?? {}) as { containers?: { name?: string }[] };
    const names = (spec.containers ?? []).map((c) => c.name ?? "");
    if (container === null || container === "") {
      if (names.length !== 1)
        throw errors.badRequest(
          `a container name must be specified for pod ${pod}, choose one of: [${names.join(" ")}]`,
        );
      return { namespace, pod, container: names[0] as string, object };
    }
    if (!names.includes(container))
      throw errors.badRequest(`container ${container} is not valid for pod ${pod}`);
    return { namespace, pod, container, object };
  }

  /** The stored pod, or the 404 Status error. */
  pod(namespace: string, name: string): Record<string, unknown> {
    const stored = this.#ctx.pod(namespace, name);
    if (!stored) throw errors.notFound({ group: "", resource: "pods" }, name);
    return stored;
  }

  #state(ref: { namespace: string; pod: string; container: string }): ContainerState {
    const key = `${ref.namespace}/${ref.pod}/${ref.container}`;
    let state = this.#containers.get(key);
    if (state === undefined) {
      state = { logs: [], previous: undefined, stopped: false, files: new Map(), events: new EventEmitter() };
      state.events.setMaxListeners(0);
      this.#containers.set(key, state);
    }
    return state;
  }

  /** Appends log lines to a container (followers see them at once). */
  log(namespace: string, pod: string, container: string, ...lines: string[]): void {
    const state = this.#state({ namespace, pod, container });
    for (const text of lines) {
      const entry = { time: new Date(this.#ctx.now()), text };
      state.logs.push(entry);
      state.events.emit("line", entry);
    }
  }

  /** Marks a container stopped: followed logs end. */
  stop(namespace: string, pod: string, container: string): void {
    const state = this.#state({ namespace, pod, container });
    state.stopped = true;
    state.events.emit("stopped");
  }

  /** Restarts a container: its logs become the previous instance's. */
  restart(namespace: string, pod: string, container: string): void {
    const key = `${namespace}/${pod}/${container}`;
    const old = this.#state({ namespace, pod, container });
    old.stopped = true;
    old.events.emit("stopped");
    this.#containers.set(key, {
      logs: [],
      previous: [...old.logs],
      stopped: false,
      files: old.files,
      events: new EventEmitter(),
    });
  }

  /** Log entries, the stop flag and a subscription for followers. */
  logsOf(
    ref: ContainerRef,
    previous: boolean,
  ): { entries: readonly LogEntry[]; stopped: boolean; events: EventEmitter } {
    const state = this.#state(ref);
    if (previous) {
      if (state.previous === undefined)
        throw new StatusError({
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message: `previous terminated container "${ref.container}" in pod "${ref.pod}" not found`,
          reason: "BadRequest",
          code: 400,
        });
      return { entries: state.previous, stopped: true, events: state.events };
    }
    return { entries: state.logs, stopped: state.stopped, events: state.events };
  }

  /** The container's in-memory files (path → content). */
  files(namespace: string, pod: string, container: string): Map<string, Buffer> {
    return this.#state({ namespace, pod, container }).files;
  }

  /** Sets what metrics.k8s.io reports for a container (until set again). */
  setUsage(namespace: string, pod: string, container: string, usage: SimulatedUsage): void {
    this.#usage.set(`${namespace}/${pod}/${container}`, { ...usage });
  }

  /** Sets what metrics.k8s.io reports for a node (default: the sum of its pods' usage). */
  setNodeUsage(node: string, usage: SimulatedUsage): void {
    this.#nodeUsage.set(node, { ...usage });
  }

  /** The usage set for a container or node, if any. */
  usageSet(namespace: string, pod: string, container: string): SimulatedUsage | undefined {
    return this.#usage.get(`${namespace}/${pod}/${container}`);
  }

  nodeUsageSet(node: string): SimulatedUsage | undefined {
    return this.#nodeUsage.get(node);
  }

  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
    for (const state of this.#containers.values()) state.events.emit("stopped");
  }
}
