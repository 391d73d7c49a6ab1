// Server-side apply by two field managers: the conflict, then the two ways out (yield or force).
import { type ApplyConfiguration, ApplyConflictError, type Deployment, Kube } from "kubesdk";

const kube = await Kube.fromKubeconfig();
const deployments = kube.resource("apps/v1", "Deployment");

function desired(replicas: number): ApplyConfiguration<Deployment> {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      replicas,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
      },
    },
  };
}

// The deploy tool owns the whole configuration, including spec.replicas.
await deployments.apply(desired(2), { fieldManager: "deploy-tool" });

// An autoscaler applies only the replica count: spec.replicas belongs to deploy-tool, so it conflicts.
const scale: ApplyConfiguration<Deployment> = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { replicas: 5 },
};
try {
  await deployments.apply(scale, { fieldManager: "autoscaler" });
  throw new Error("expected a conflict");
} catch (err) {
  if (!(err instanceof ApplyConflictError)) throw err;
  for (const c of err.conflicts) console.log(`conflict: ${c.path} is owned by ${c.manager}`);
}

// The autoscaler takes the field over (force), as its job is to own the replica count.
const forced = await deployments.apply(scale, { fieldManager: "autoscaler", conflicts: "force" });
console.log("after force: replicas =", forced.spec?.replicas);

// The deploy tool applies again but yields the fields someone else now owns.
const { object, yielded } = await deployments.applyWithResult(desired(2), {
  fieldManager: "deploy-tool",
  conflicts: "yield",
});
for (const c of yielded) console.log(`deploy-tool left ${c.path} to ${c.manager}`);
console.log("after yield: replicas =", object.spec?.replicas);
if (object.spec?.replicas !== 5) throw new Error("the autoscaler's value should have stayed");

await deployments.delete("web");
await kube.close();
