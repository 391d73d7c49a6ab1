/** pathWalker answers what valueAt answers, path for path, whatever order the paths come in. */
import { schemaFor } from "@kubesdk/models";
import { describe, expect, it } from "vitest";
import { pathWalker, valueAt } from "../src/apply/structured-merge.js";

const schema = schemaFor({ group: "apps", version: "v1", kind: "Deployment" });
const deployment = {
  metadata: { name: "d", labels: { app: "x", tier: "web" } },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [
          { name: "a", image: "a:1", ports: [{ containerPort: 80, protocol: "TCP" }] },
          { name: "b", image: "b:1" },
        ],
      },
    },
  },
};
const containers = ["f:spec", "f:template", "f:spec", "f:containers"];
const paths: string[][] = [
  ["f:metadata"],
  ["f:metadata", "f:labels"],
  ["f:metadata", "f:labels", "f:app"],
  ["f:metadata", "f:labels", "f:missing"],
  ["f:metadata", "f:labels", "f:tier"],
  ["f:metadata", "f:annotations", "f:a"],
  ["f:metadata", "f:annotations"],
  ["f:spec", "f:replicas"],
  [...containers, 'k:{"name":"a"}', "f:image"],
  [...containers, 'k:{"name":"a"}', "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}'],
  [...containers, 'k:{"name":"c"}', "f:image"],
  [...containers, 'k:{"name":"b"}', "f:image"],
  [...containers, 'k:{"name":"b"}'],
  [],
  ["f:spec", "f:replicas", "f:deeper"],
];

describe("pathWalker", () => {
  it("finds, and misses, what valueAt does, in depth-first order and shuffled", () => {
    for (const order of [paths, [...paths].reverse(), paths.filter((_, i) => i % 2 === 0)]) {
      const walk = pathWalker(deployment, schema);
      for (const path of order) expect(walk(path), path.join(".")).toEqual(valueAt(deployment, path, schema));
    }
    expect(pathWalker(deployment, schema)([...containers, 'k:{"name":"b"}', "f:image"]).value).toBe("b:1");
  });
});
