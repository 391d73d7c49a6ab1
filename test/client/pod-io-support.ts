/**
 * Shared setup of the pod I/O suites: a reference server with pod hooks, a namespace, a client
 * defaulting to it, pods to talk to, and a count of open TCP handles to prove every socket is released.
 */
import type { Kube } from "@kubesdk/client";
import type { PodRuntime, StartOptions } from "@kubesdk/server";
import { isAlreadyExists } from "@kubesdk/transport";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { markRunning, requirePodAddress, startTestKubelet, type TestKubelet } from "../support/kubelet.js";
import { registerMetricsApi } from "../support/metrics-api.js";
import { suiteView } from "../support/suite-view.js";
import { startTarget, type TestTarget } from "../support/target.js";
import { clientFor, createNamespace } from "./support.js";

export interface PodSuite {
  readonly t: TestTarget;
  readonly kube: Kube;
  readonly ns: string;
  /** The pod runtime behind the pods: the reference server's, or the test kubelet's on a real apiserver. */
  readonly pods: PodRuntime;
  /** The node pods are bound to (the test kubelet's), or undefined on the reference server. */
  readonly nodeName: string | undefined;
  /**
   * The port to proxy to for a pod's `port`: the same on the reference server; on a real apiserver
   * the pod's port is served on the pod IP at a free port, which is returned.
   */
  exposePort(pod: string, port: number): Promise<number>;
}

export interface PodSuiteExtras {
  /** On a real apiserver, register the test kubelet's metrics API (the reference server has one). */
  readonly metrics?: boolean;
}

/** The node pods of the running suite are bound to (a real apiserver proxies pod I/O to its kubelet). */
let activeSuite: { t: TestTarget; kubelet: TestKubelet | undefined } | undefined;

/** A namespace for pods, with the "default" ServiceAccount they need. */
async function podNamespace(t: TestTarget, prefix: string): Promise<string> {
  const admin = await clientFor(t);
  const ns = await createNamespace(admin, prefix);
  // A bare kube-apiserver has no controller creating the "default" ServiceAccount pods need.
  await admin
    .resource("v1", "ServiceAccount")
    .create({ metadata: { name: "default" } }, { namespace: ns })
    .catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
  await admin.close();
  return ns;
}

/**
 * Starts the target with `options` (pod hooks), a namespace and a client for it. On a real
 * kube-apiserver the hooks run in a test kubelet (the same pod runtime behind a kubelet endpoint).
 */
export function podSuite(
  prefix: string,
  options: StartOptions = {},
  withKubelet = true,
  extras: PodSuiteExtras = {},
): PodSuite {
  let state: { t: TestTarget; kube: Kube; ns: string; pods: PodRuntime | undefined } | undefined;
  let kubelet: TestKubelet | undefined;
  let metrics: { close(): Promise<void> } | undefined;
  beforeAll(async () => {
    const t = await startTarget(options);
    if (t.kind === "real" && withKubelet) kubelet = await startTestKubelet(t, options.pods);
    activeSuite = { t, kubelet };
    const ns = await podNamespace(t, prefix);
    if (kubelet && extras.metrics)
      metrics = await registerMetricsApi(t, kubelet.endpoint.runtime, kubelet.nodeName, ns);
    state = {
      t,
      ns,
      pods: t.reference?.pods ?? kubelet?.endpoint.runtime,
      kube: await clientFor(t, ns, { transport: { retries: false } }),
    };
  });
  afterAll(async () => {
    // Test files share this module (vitest's `isolate: false`): the next file must not see this node.
    activeSuite = undefined;
    await state?.kube.close();
    await metrics?.close();
    await kubelet?.close();
    await state?.t.close();
  });
  const view = suiteView(() => state);
  return {
    get t() {
      return view.t;
    },
    get kube() {
      return view.kube;
    },
    get ns() {
      return view.ns;
    },
    get pods() {
      const pods = view.pods;
      if (pods === undefined)
        throw new Error("this suite has no pod runtime (no kubelet on the real apiserver)");
      return pods;
    },
    get nodeName() {
      return kubelet?.nodeName;
    },
    async exposePort(pod, port) {
      if (view.t.kind === "reference") return port;
      requirePodAddress();
      if (!kubelet) throw new Error("this suite has no test kubelet to serve pod ports");
      return kubelet.endpoint.exposePodPort(view.ns, pod, 0);
    },
  };
}

/** Creates a pod with the given containers (default one container "main") and labels. */
export async function createPod(
  kube: Kube,
  name: string,
  containers: readonly string[] = ["main"],
  labels: Record<string, string> = {},
): Promise<void> {
  const nodeName = activeSuite?.kubelet?.nodeName;
  const created = await kube.resource("v1", "Pod").create({
    metadata: { name, labels },
    spec: {
      containers: containers.map((c) => ({ name: c, image: "busybox" })),
      ...(nodeName ? { nodeName } : {}),
    },
  });
  if (nodeName && activeSuite)
    await markRunning(activeSuite.t, created.metadata?.namespace as string, name, containers);
}

/** Open TCP sockets and servers of this process (client and in-process server sides). */
export function openTcpHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap" || r === "TCPServerWrap")
    .length;
}

/**
 * Waits until the open TCP handles are back to `baseline` or fewer. The bound is generous on purpose:
 * a socket is released only after its WebSocket close handshake, and on a loaded 2-core machine
 * (the test failed there with 5 s while passing alone) the handshake's turns of the event loop can
 * take seconds; what the tests assert is that every socket is released, not how fast.
 */
export async function expectHandlesReleased(baseline: number): Promise<void> {
  await vi.waitFor(() => expect(openTcpHandles()).toBeLessThanOrEqual(baseline), {
    timeout: 20_000, // under the 30 s test timeout of vitest.config.ts
    interval: 20,
  });
}

/** The HTTP code of an ApiError (`statusCode`; older builds of the error model call it `code`). */
export function httpCodeOf(err: unknown): number | undefined {
  const e = err as { statusCode?: unknown; code?: unknown };
  if (typeof e?.statusCode === "number") return e.statusCode;
  return typeof e?.code === "number" ? e.code : undefined;
}
