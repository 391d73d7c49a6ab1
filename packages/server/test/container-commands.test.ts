/**
 * The simulated kubelets' reading of a pod's containers (cluster/container-commands.ts) and where
 * it stands among the behaviour rules (cluster/behaviour.ts): the default Job rule, then the
 * commands, then configured stages, annotations and what a test set.
 */
import type { coreV1 } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { behaviourOf, DEFAULT_STAGES, type PodStage } from "../src/cluster/behaviour.js";
import { parseClusterDocument } from "../src/cluster/cluster-document.js";

const jobOwner = [{ apiVersion: "batch/v1", kind: "Job", name: "j", uid: "u", controller: true }];

function pod(
  containers: coreV1.Container[],
  owned = false,
  annotations?: Record<string, string>,
): coreV1.Pod {
  return {
    metadata: { name: "p", namespace: "ns", ...(owned ? { ownerReferences: jobOwner } : {}), annotations },
    spec: { containers },
  };
}

const resolve = (p: coreV1.Pod, stages: readonly PodStage[] = []) =>
  behaviourOf(p, [...DEFAULT_STAGES, ...stages], undefined);

describe("container commands", () => {
  it.each([
    [["/bin/sh", "-c", "exit 1"], 0, 1],
    [["sh", "-c", "exit 0"], 0, 0],
    [["bash", "-c", " exit 42; "], 0, 42],
    [["sleep", "5"], 5000, 0],
    [["/bin/sh", "-c", "sleep 2"], 2000, 0],
  ])("%j runs %i ms and exits with %i", (command, runMs, exitCode) => {
    expect(resolve(pod([{ name: "c", image: "busybox", command }]))).toMatchObject({ runMs, exitCode });
  });

  it("reads command and args together", () => {
    const b = resolve(pod([{ name: "c", image: "busybox", command: ["sh"], args: ["-c", "exit 7"] }]));
    expect(b).toMatchObject({ runMs: 0, exitCode: 7 });
  });

  it("a Job's pause-image pod runs until deleted; another Job pod still completes at once", () => {
    const pause = resolve(pod([{ name: "c", image: "registry.k8s.io/pause:3.10" }], true));
    expect(pause.runMs).toBeUndefined();
    const plain = resolve(pod([{ name: "c", image: "busybox" }], true));
    expect(plain).toMatchObject({ runMs: 0, exitCode: 0 });
  });

  it("says nothing about a command it cannot read, or when one container's is unknown", () => {
    expect(
      resolve(pod([{ name: "c", image: "busybox", command: ["sh", "-c", "exit $CODE"] }])).runMs,
    ).toBeUndefined();
    const mixed = pod([
      { name: "a", image: "busybox", command: ["sh", "-c", "exit 1"] },
      { name: "b", image: "nginx" },
    ]);
    expect(resolve(mixed).runMs).toBeUndefined();
  });

  it("a pod ends when its last container does, with the first non-zero exit code", () => {
    const both = pod([
      { name: "a", image: "busybox", command: ["sleep", "3"] },
      { name: "b", image: "busybox", command: ["sh", "-c", "exit 2"] },
    ]);
    expect(resolve(both)).toMatchObject({ runMs: 3000, exitCode: 2 });
  });

  it("configured stages and annotations win over the commands", () => {
    const p = pod([{ name: "c", image: "busybox", command: ["sh", "-c", "exit 1"] }]);
    expect(resolve(p, [{ behaviour: { exitCode: 0 } }]).exitCode).toBe(0);
    const annotated = pod([{ name: "c", image: "busybox", command: ["sleep", "9"] }], false, {
      "sim.kubesdk.dev/run-ms": "10",
    });
    expect(resolve(annotated).runMs).toBe(10);
  });
});

describe("images that cannot be pulled", () => {
  it("are chosen by a stage's images or by annotation", () => {
    const stage: PodStage = { images: ["foo:non-existent"], behaviour: { imagePullFails: true } };
    expect(resolve(pod([{ name: "c", image: "foo:non-existent" }]), [stage]).imagePullFails).toBe(true);
    expect(resolve(pod([{ name: "c", image: "foo:1" }]), [stage]).imagePullFails).toBe(false);
    const annotated = pod([{ name: "c", image: "foo:1" }], false, {
      "sim.kubesdk.dev/image-pull-fails": "true",
    });
    expect(resolve(annotated).imagePullFails).toBe(true);
  });
});

describe("a SimulatedCluster document", () => {
  it("takes a stage's images and imagePullFails, and names a wrong image", () => {
    const doc = {
      kind: "SimulatedCluster",
      stages: [{ name: "missing", images: ["foo:404"], behaviour: { imagePullFails: true } }],
    };
    expect(parseClusterDocument(doc, "c.yaml").stages).toEqual([
      { name: "missing", images: ["foo:404"], behaviour: { imagePullFails: true } },
    ]);
    const wrong = { kind: "SimulatedCluster", stages: [{ images: ["ok", 3], behaviour: {} }] };
    expect(() => parseClusterDocument(wrong, "c.yaml")).toThrow(
      "c.yaml: stages[0].images[1]: must be an image name",
    );
  });
});
