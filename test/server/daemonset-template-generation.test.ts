/**
 * A DaemonSet's template generation: apps/v1 has no `spec.templateGeneration`, kube-apiserver keeps
 * it in the `deprecated.daemonset.template.generation` annotation, which it sets on create (at least
 * 1) and raises by one with each template change, whatever the request sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget } from "../support/target.js";

let t: TestTarget;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const DS = "/apis/apps/v1/namespaces/default/daemonsets";
const KEY = "deprecated.daemonset.template.generation";
const labels = { app: "tg" };
const daemonSet = (name: string, annotations?: Record<string, string>) => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: {
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "busybox" }] } },
  },
});
/** A decoded answer body, as the target hands it over. */
type Obj = Awaited<ReturnType<TestTarget["call"]>>["json"];
const generationOf = (o: Obj) => o.metadata?.annotations?.[KEY];

async function created(body: Obj): Promise<Obj> {
  const res = await t.call("POST", DS, { body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json;
}

async function put(obj: Obj): Promise<Obj> {
  const res = await t.call("PUT", `${DS}/${obj.metadata.name}`, { body: obj });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

describe("DaemonSet template generation", () => {
  it("starts at 1 and rises with each template change only", async () => {
    const ds = await created(daemonSet("tg-a"));
    expect(generationOf(ds)).toBe("1");
    ds.spec.template.spec.containers[0].image = "busybox:2";
    ds.metadata.annotations[KEY] = "7";
    const changed = await put(ds);
    expect(generationOf(changed)).toBe("2");
    expect(changed.metadata.generation).toBe(2);
    changed.metadata.annotations[KEY] = "9";
    changed.spec.minReadySeconds = 5;
    const other = await put(changed);
    expect(generationOf(other)).toBe("2");
    expect(other.metadata.generation).toBe(3);
    await t.call("DELETE", `${DS}/tg-a`);
  });

  it.each([
    ["5", "5"],
    ["0", "1"],
    ["-3", "1"],
  ])("a create that sends %s gets %s", async (sent, kept) => {
    const ds = await created(daemonSet("tg-b", { [KEY]: sent }));
    expect(generationOf(ds)).toBe(kept);
    await t.call("DELETE", `${DS}/tg-b`);
  });

  it.each([
    ["abc", "invalid syntax"],
    ["9223372036854775808", "value out of range"],
  ])("a create whose annotation is %s is refused at decoding", async (sent, why) => {
    const res = await t.call("POST", `${DS}?dryRun=All`, { body: daemonSet("tg-c", { [KEY]: sent }) });
    expect(res.status).toBe(400);
    expect(res.json.reason).toBe("BadRequest");
    expect(res.json.message).toBe(
      `DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "${sent}": ${why}`,
    );
  });
});
