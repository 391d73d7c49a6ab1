/**
 * What a simulated pod does and when: how long it takes to start and to become ready, whether and
 * when its containers exit and with which code, and whether it ignores SIGTERM on deletion. Taken,
 * last wins, from the cluster's defaults, its stage rules (a KWOK-like list: a selector and the
 * behaviour of the pods it selects), the pod's `sim.kubesdk.dev/*` annotations and what a test set
 * for that one pod.
 */
import type { coreV1, metaV1 } from "@kubesdk/models";
import { commandBehaviour } from "./container-commands.js";
import { selects } from "./objects.js";

export interface PodBehaviour {
  /** Milliseconds from binding to Running (default 0). */
  readonly startMs?: number;
  /** Milliseconds from Running to Ready (default: the readiness probe's initialDelaySeconds, else 0). */
  readonly readyMs?: number;
  /** Whether the readiness (and startup) probes succeed (default true). */
  readonly ready?: boolean;
  /** Milliseconds the containers run before they exit; absent: they run until deleted. */
  readonly runMs?: number;
  /** The containers' exit code when they exit (default 0). */
  readonly exitCode?: number;
  /**
   * Milliseconds containers that handle SIGTERM take to stop after a deletion (default 0); past the
   * grace period they are killed (137).
   */
  readonly stopMs?: number;
  /** The containers ignore SIGTERM: a deletion waits the whole grace period, then kills (137). */
  readonly ignoresSigterm?: boolean;
  /** The image cannot be pulled: the pod stays Pending, its containers waiting in ImagePullBackOff. */
  readonly imagePullFails?: boolean;
}

/** A stage rule: the behaviour of the pods a selector (and optionally a namespace) selects. */
export interface PodStage {
  readonly name?: string;
  readonly namespace?: string;
  readonly selector?: metaV1.LabelSelector;
  /** Pods controlled by an object of this kind (e.g. `Job`). */
  readonly ownerKind?: string;
  /** Pods with a container (or init container) running one of these images. */
  readonly images?: readonly string[];
  /** The behaviour, or how to read it from the pod. */
  readonly behaviour: PodBehaviour | ((pod: coreV1.Pod) => PodBehaviour);
}

/**
 * Job pods run to completion; everything else runs until deleted; then what the containers'
 * commands plainly do (container-commands.ts) overrides both.
 */
export const DEFAULT_STAGES: readonly PodStage[] = [
  { name: "job-pods-complete", ownerKind: "Job", behaviour: { runMs: 0, exitCode: 0 } },
  { name: "container-commands", behaviour: commandBehaviour },
];

const PREFIX = "sim.kubesdk.dev/";

const NUMBERS = ["startMs", "readyMs", "runMs", "exitCode", "stopMs"] as const;
const ANNOTATION: Record<string, string> = {
  startMs: "start-ms",
  readyMs: "ready-ms",
  runMs: "run-ms",
  exitCode: "exit-code",
  stopMs: "stop-ms",
  ready: "ready",
  ignoresSigterm: "ignore-sigterm",
  imagePullFails: "image-pull-fails",
};

/** The behaviour a pod's `sim.kubesdk.dev/*` annotations ask for (unparseable values are ignored). */
export function annotatedBehaviour(annotations: Record<string, string> = {}): PodBehaviour {
  const out: Record<string, number | boolean> = {};
  for (const field of NUMBERS) {
    const raw = annotations[PREFIX + ANNOTATION[field]];
    if (raw !== undefined && /^\d+$/.test(raw)) out[field] = Number(raw);
  }
  for (const field of ["ready", "ignoresSigterm", "imagePullFails"] as const) {
    const raw = annotations[PREFIX + ANNOTATION[field]];
    if (raw === "true" || raw === "false") out[field] = raw === "true";
  }
  // An exit code alone means the containers exit at once.
  if (out.exitCode !== undefined && out.runMs === undefined) out.runMs = 0;
  return out as PodBehaviour;
}

function stageSelects(stage: PodStage, pod: coreV1.Pod): boolean {
  const meta = pod.metadata ?? {};
  if (stage.namespace !== undefined && stage.namespace !== meta.namespace) return false;
  if (stage.selector !== undefined && !selects(stage.selector, meta.labels)) return false;
  if (stage.images !== undefined && !runsImage(pod, stage.images)) return false;
  if (stage.ownerKind !== undefined)
    return (meta.ownerReferences ?? []).some((o) => o.controller === true && o.kind === stage.ownerKind);
  return true;
}

function runsImage(pod: coreV1.Pod, images: readonly string[]): boolean {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return containers.some((c) => images.includes(c.image ?? ""));
}

/** The readiness probe's initial delay, in milliseconds, of the slowest container. */
function probeDelayMs(pod: coreV1.Pod): number {
  let ms = 0;
  for (const c of pod.spec?.containers ?? []) {
    const delay = (c.readinessProbe?.initialDelaySeconds ?? 0) + (c.startupProbe?.initialDelaySeconds ?? 0);
    ms = Math.max(ms, delay * 1000);
  }
  return ms;
}

export interface ResolvedBehaviour {
  readonly startMs: number;
  readonly readyMs: number;
  readonly ready: boolean;
  readonly runMs: number | undefined;
  readonly exitCode: number;
  readonly stopMs: number;
  readonly ignoresSigterm: boolean;
  readonly imagePullFails: boolean;
}

/** The behaviour of one pod: defaults, then stages in order, annotations, then the test's own. */
export function behaviourOf(
  pod: coreV1.Pod,
  stages: readonly PodStage[],
  own: PodBehaviour | undefined,
): ResolvedBehaviour {
  let b: PodBehaviour = {};
  for (const stage of stages) {
    if (!stageSelects(stage, pod)) continue;
    b = { ...b, ...(typeof stage.behaviour === "function" ? stage.behaviour(pod) : stage.behaviour) };
  }
  b = { ...b, ...annotatedBehaviour(pod.metadata?.annotations), ...own };
  return {
    startMs: b.startMs ?? 0,
    readyMs: b.readyMs ?? probeDelayMs(pod),
    ready: b.ready ?? true,
    runMs: b.runMs,
    exitCode: b.exitCode ?? 0,
    stopMs: b.stopMs ?? 0,
    ignoresSigterm: b.ignoresSigterm ?? false,
    imagePullFails: b.imagePullFails ?? false,
  };
}

/**
 * The behaviours in force: the stages (defaults first), each pod's own (set by a test), and a hook
 * asked for every pod (`startServer({ pods: { behaviour } })`). Listeners hear of every change, so
 * that the kubelets look at the pods again.
 */
export class PodBehaviours {
  private readonly list: PodStage[];
  private readonly own = new Map<string, PodBehaviour>();
  private readonly listeners = new Set<(key?: string) => void>();

  constructor(
    stages: readonly PodStage[] = [],
    private readonly hook?: (pod: coreV1.Pod) => PodBehaviour | undefined,
  ) {
    this.list = [...DEFAULT_STAGES, ...stages];
  }

  stages(): readonly PodStage[] {
    return this.list;
  }

  addStage(stage: PodStage): void {
    this.list.push(stage);
    for (const l of this.listeners) l();
  }

  /** What the test set for the pod, merged over what the hook says. */
  ownOf(pod: coreV1.Pod): PodBehaviour | undefined {
    const set = this.own.get(`${pod.metadata?.namespace}/${pod.metadata?.name}`);
    const hooked = this.hook?.(pod);
    return hooked || set ? { ...hooked, ...set } : undefined;
  }

  set(namespace: string, name: string, behaviour: PodBehaviour): void {
    const key = `${namespace}/${name}`;
    this.own.set(key, { ...this.own.get(key), ...behaviour });
    for (const l of this.listeners) l(key);
  }

  onChange(listener: (key?: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
