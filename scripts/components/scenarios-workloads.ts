/** Components-suite scenarios: garbage collection, namespace deletion, services and other workloads. */
import type { Cluster } from "./cluster.js";
import { FINISHES, type Observation, type Scenario } from "./scenarios.js";
import { until } from "./wait.js";

const IMAGE = "registry.k8s.io/pause:3.10";
const HOLD = "example.com/hold";

async function namespace(c: Cluster, name: string): Promise<void> {
  await c.call("POST", "/api/v1/namespaces", { metadata: { name } });
  await until(
    `serviceaccount ${name}/default`,
    async () => (await c.call("GET", `/api/v1/namespaces/${name}/serviceaccounts/default`)).status === 200,
  );
}

const cmPath = (ns: string, name = "") => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;
const gone = async (c: Cluster, path: string) => (await c.call("GET", path)).status === 404;

/** An owner ConfigMap and two dependents (one held by a finalizer when `hold`). */
async function family(c: Cluster, ns: string, prefix: string, hold: boolean) {
  const owner = (await c.call("POST", cmPath(ns), { metadata: { name: `${prefix}-owner` } })).json;
  const ref = {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    blockOwnerDeletion: true,
  };
  for (const [i, held] of [
    [1, hold],
    [2, false],
  ] as const)
    await c.call("POST", cmPath(ns), {
      metadata: {
        name: `${prefix}-dep${i}`,
        ownerReferences: [ref],
        ...(held ? { finalizers: [HOLD] } : {}),
      },
    });
  return owner.metadata.name as string;
}

async function release(c: Cluster, path: string) {
  await c.call("PATCH", path, { metadata: { finalizers: null } }, "application/merge-patch+json");
}

const deletion: Scenario = {
  name: "background, foreground and orphan deletion",
  async run(c) {
    const ns = "c-gc";
    await namespace(c, ns);
    const out: Observation = {};
    // Background: the owner goes at once, the collector deletes the dependents.
    const bg = await family(c, ns, "bg", false);
    await c.kubectl("delete", "-n", ns, "configmap", bg, "--cascade=background");
    await until(
      "background dependents gone",
      async () => (await gone(c, cmPath(ns, "bg-dep1"))) && gone(c, cmPath(ns, "bg-dep2")),
    );
    out.background = { ownerGone: await gone(c, cmPath(ns, bg)), dependentsGone: true };
    // Foreground: the owner waits, with its finalizer, for the blocking dependent held by another finalizer.
    const fg = await family(c, ns, "fg", true);
    await c.call("DELETE", cmPath(ns, fg), { propagationPolicy: "Foreground" });
    const dep1 = await until("held dependent marked", async () => {
      const d = (await c.call("GET", cmPath(ns, "fg-dep1"))).json;
      return d.metadata?.deletionTimestamp ? d : undefined;
    });
    await until("unheld dependent gone", () => gone(c, cmPath(ns, "fg-dep2")));
    const waiting = (await c.call("GET", cmPath(ns, fg))).json;
    await release(c, cmPath(ns, "fg-dep1"));
    await until("foreground owner gone", () => gone(c, cmPath(ns, fg)));
    out.foreground = {
      ownerFinalizersWhileWaiting: waiting.metadata.finalizers,
      heldDependentFinalizers: dep1.metadata.finalizers,
      ownerGoneAfterRelease: true,
    };
    // Orphan: dependents stay without the owner reference.
    const or = await family(c, ns, "or", false);
    await c.kubectl("delete", "-n", ns, "configmap", or, "--cascade=orphan");
    await until("orphaning owner gone", () => gone(c, cmPath(ns, or)));
    const survivors = await Promise.all(
      ["or-dep1", "or-dep2"].map(async (n) => (await c.call("GET", cmPath(ns, n))).json),
    );
    out.orphan = {
      dependents: survivors.map((d) => ({
        name: d.metadata.name,
        ownerReferences: d.metadata.ownerReferences ?? null,
      })),
    };
    return out;
  },
};

/** A dependent whose owner is absent: never created, or an object of that name with another uid. */
const danglingOwners: Scenario = {
  name: "dependents of owners that do not exist",
  async run(c) {
    const ns = "c-gc-dangling";
    await namespace(c, ns);
    const owner = (await c.call("POST", cmPath(ns), { metadata: { name: "dg-owner" } })).json;
    const ref = (name: string, uid: string) => ({ apiVersion: "v1", kind: "ConfigMap", name, uid });
    const solid = ref("dg-owner", owner.metadata.uid);
    const dependent = (name: string, ...ownerReferences: object[]) =>
      c.call("POST", cmPath(ns), { metadata: { name, ownerReferences } });
    await dependent("dg-never", ref("dg-missing", "00000000-0000-0000-0000-0000000000a1"));
    await dependent("dg-other-uid", ref("dg-owner", "00000000-0000-0000-0000-0000000000a2"));
    await dependent("dg-mixed", ref("dg-missing", "00000000-0000-0000-0000-0000000000a3"), solid);
    await until(
      "dependents of absent owners gone",
      async () => (await gone(c, cmPath(ns, "dg-never"))) && gone(c, cmPath(ns, "dg-other-uid")),
    );
    const mixed = await until("dangling reference dropped", async () => {
      const d = (await c.call("GET", cmPath(ns, "dg-mixed"))).json;
      return d.metadata?.ownerReferences?.length === 1 ? d : undefined;
    });
    const kept = (await c.call("GET", cmPath(ns, "dg-owner"))).json;
    return {
      absentOwnersDependentsGone: true,
      ownerWithBorrowedNameKept: kept.metadata?.uid === owner.metadata.uid,
      mixedDependentOwners: mixed.metadata.ownerReferences.map((r: { name: string }) => r.name),
    };
  },
};

const namespaceDeletion: Scenario = {
  name: "namespace deletion waits on a finalizer",
  async run(c) {
    const ns = "c-nsdel";
    await namespace(c, ns);
    await c.call("POST", cmPath(ns), { metadata: { name: "held", finalizers: [HOLD] } });
    await c.call("POST", cmPath(ns), { metadata: { name: "free" } });
    await c.call("DELETE", `/api/v1/namespaces/${ns}`);
    const conditions = await until("namespace conditions", async () => {
      const got = (await c.call("GET", `/api/v1/namespaces/${ns}`)).json;
      const conds = (got.status?.conditions ?? []) as {
        type: string;
        status: string;
        reason: string;
        message: string;
      }[];
      const fin = conds.find((x) => x.type === "NamespaceFinalizersRemaining");
      return fin?.status === "True" && (await gone(c, cmPath(ns, "free"))) ? conds : undefined;
    });
    const phase = (await c.call("GET", `/api/v1/namespaces/${ns}`)).json.status.phase;
    await release(c, cmPath(ns, "held"));
    await until("namespace gone", () => gone(c, `/api/v1/namespaces/${ns}`), 120_000);
    return {
      phaseWhileHeld: phase,
      conditions: conditions
        .filter((x) => x.type === "NamespaceContentRemaining" || x.type === "NamespaceFinalizersRemaining")
        .map(({ type, status, reason, message }) => ({ type, status, reason, message })),
      removedAfterRelease: true,
    };
  },
};

const podTemplate = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: "c", image: IMAGE }] },
});

const service: Scenario = {
  name: "ClusterIP service gets one IPv4 EndpointSlice",
  async run(c) {
    const ns = "c-svc";
    await namespace(c, ns);
    await c.call("POST", `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: "backend" },
      spec: { replicas: 2, selector: { matchLabels: { app: "backend" } }, template: podTemplate("backend") },
    });
    const svc = (
      await c.call("POST", `/api/v1/namespaces/${ns}/services`, {
        metadata: { name: "backend" },
        spec: { selector: { app: "backend" }, ports: [{ port: 80, targetPort: 8080 }] },
      })
    ).json;
    const slices = await until("endpoint slice with 2 ready endpoints", async () => {
      const list = (
        await c.call(
          "GET",
          `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dbackend`,
        )
      ).json.items;
      const ready =
        list?.[0]?.endpoints?.filter((e: { conditions: { ready: boolean } }) => e.conditions.ready) ?? [];
      return list?.length === 1 && ready.length === 2 ? list : undefined;
    });
    return {
      clusterIPAllocated: typeof svc.spec.clusterIP === "string" && svc.spec.clusterIP !== "",
      ipFamilies: svc.spec.ipFamilies,
      ipFamilyPolicy: svc.spec.ipFamilyPolicy,
      slices: slices.length,
      addressType: slices[0].addressType,
      endpoints: slices[0].endpoints.length,
      ports: slices[0].ports,
    };
  },
};

const daemonSet: Scenario = {
  name: "DaemonSet runs one pod per node",
  async run(c) {
    const ns = "c-ds";
    await namespace(c, ns);
    await c.call("POST", `/apis/apps/v1/namespaces/${ns}/daemonsets`, {
      metadata: { name: "agent" },
      spec: { selector: { matchLabels: { app: "agent" } }, template: podTemplate("agent") },
    });
    const ds = await until("daemonset ready", async () => {
      const d = (await c.call("GET", `/apis/apps/v1/namespaces/${ns}/daemonsets/agent`)).json;
      return d.status?.numberReady === 2 ? d : undefined;
    });
    const ps = (await c.call("GET", `/api/v1/namespaces/${ns}/pods`)).json.items as {
      spec: { nodeName: string };
    }[];
    return {
      desired: ds.status.desiredNumberScheduled,
      ready: ds.status.numberReady,
      nodes: ps.map((p) => p.spec.nodeName).sort(),
    };
  },
};

const statefulSet: Scenario = {
  name: "StatefulSet creates ordered pods",
  async run(c) {
    const ns = "c-sts";
    await namespace(c, ns);
    await c.call("POST", `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: "db" },
      spec: { clusterIP: "None", selector: { app: "db" }, ports: [{ port: 5432 }] },
    });
    await c.call("POST", `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      metadata: { name: "db" },
      spec: {
        serviceName: "db",
        replicas: 2,
        selector: { matchLabels: { app: "db" } },
        template: podTemplate("db"),
      },
    });
    const sts = await until("statefulset ready", async () => {
      const s = (await c.call("GET", `/apis/apps/v1/namespaces/${ns}/statefulsets/db`)).json;
      return s.status?.readyReplicas === 2 ? s : undefined;
    });
    const ps = (await c.call("GET", `/api/v1/namespaces/${ns}/pods`)).json.items as {
      metadata: { name: string };
    }[];
    return { ready: sts.status.readyReplicas, pods: ps.map((p) => p.metadata.name).sort() };
  },
};

/** Started first (a CronJob fires on the minute) and checked last. */
export async function createCronJob(c: Cluster): Promise<void> {
  await namespace(c, "c-cron");
  const res = await c.call("POST", "/apis/batch/v1/namespaces/c-cron/cronjobs", {
    metadata: { name: "tick" },
    spec: {
      schedule: "* * * * *",
      jobTemplate: {
        spec: { template: { spec: { restartPolicy: "Never", containers: [FINISHES] } } },
      },
    },
  });
  if (res.status !== 201) throw new Error(`cronjob: ${res.status} ${JSON.stringify(res.json)}`);
}

const cronJob: Scenario = {
  name: "CronJob starts a Job",
  async run(c) {
    const job = await until(
      "job from the cronjob",
      async () => {
        const items = (await c.call("GET", "/apis/batch/v1/namespaces/c-cron/jobs")).json.items;
        return items?.length > 0 ? items[0] : undefined;
      },
      150_000,
    );
    const cj = await until("cronjob status", async () => {
      const got = (await c.call("GET", "/apis/batch/v1/namespaces/c-cron/cronjobs/tick")).json;
      return got.status?.lastScheduleTime ? got : undefined;
    });
    return {
      jobOwnedByCronJob: job.metadata.ownerReferences?.[0]?.kind === "CronJob",
      lastScheduleTimeSet: typeof cj.status.lastScheduleTime === "string",
    };
  },
};

export const SCENARIOS_B: readonly Scenario[] = [
  deletion,
  danglingOwners,
  namespaceDeletion,
  service,
  daemonSet,
  statefulSet,
  cronJob,
];
