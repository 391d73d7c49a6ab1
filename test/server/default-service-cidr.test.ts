/**
 * The default ServiceCIDR kube-apiserver keeps for its service range (packages/server/src/bootstrap.ts):
 * `kubernetes`, holding the cluster IP of the `default/kubernetes` Service, and Ready.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

/** Whether an IPv4 address lies in an IPv4 CIDR. */
function inCidr(ip: string, cidr: string): boolean {
  const toInt = (a: string) => a.split(".").reduce((n, part) => n * 256 + Number(part), 0);
  const [base = "", bits = "32"] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toInt(ip) / size) === Math.floor(toInt(base) / size);
}

it("serves the default ServiceCIDR kubernetes: the service range, Ready, through its status too", async () => {
  const cidr = await t.call("GET", "/apis/networking.k8s.io/v1/servicecidrs/kubernetes");
  expect(cidr.status, cidr.text).toBe(200);
  const service = await t.call("GET", "/api/v1/namespaces/default/services/kubernetes");
  const [range] = cidr.json.spec.cidrs as string[];
  expect(cidr.json.spec.cidrs).toHaveLength(1);
  expect(inCidr(service.json.spec.clusterIP, range ?? "")).toBe(true);
  expect(cidr.json.status.conditions).toEqual([
    expect.objectContaining({
      type: "Ready",
      status: "True",
      message: "Kubernetes default Service CIDR is ready",
    }),
  ]);
  const status = await t.call("GET", "/apis/networking.k8s.io/v1/servicecidrs/kubernetes/status");
  expect(status.json.metadata.uid).toBe(cidr.json.metadata.uid);
  const list = await t.call("GET", "/apis/networking.k8s.io/v1/servicecidrs");
  expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain("kubernetes");
});
