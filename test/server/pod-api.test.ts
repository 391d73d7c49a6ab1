import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, targetKind, uniqueName } from "../support/target.js";

// The pod API is the kubesdk-server command's way to drive its simulated containers from another
// process; kube-apiserver has no simulated containers, so this runs on the reference server only.
describe.runIf(targetKind === "reference")("kubesdk-server pod API (--pod-api)", () => {
  let t: TestTarget;
  let ns: string;
  const control = (pod: string, container: string, action: string, body?: unknown) =>
    t.call("POST", `/_kubesdk/pods/${ns}/${pod}/${container}/${action}`, body === undefined ? {} : { body });

  beforeAll(async () => {
    t = await startTarget({ podApi: true });
    ns = uniqueName("podapi");
    await t.call("POST", "/api/v1/namespaces", { body: { metadata: { name: ns } } });
    const pod = { metadata: { name: "web" }, spec: { containers: [{ name: "app", image: "busybox" }] } };
    expect((await t.call("POST", `/api/v1/namespaces/${ns}/pods`, { body: pod })).status).toBe(201);
  });
  afterAll(() => t.close());

  it("appends log lines that pods/log then serves, and restart makes them the previous instance's", async () => {
    expect((await control("web", "app", "log", { lines: ["one", "two"] })).status).toBe(200);
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/web/log`)).text).toBe("one\ntwo\n");
    expect((await control("web", "app", "restart")).status).toBe(200);
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/web/log`)).text).toBe("");
    expect((await t.call("GET", `/api/v1/namespaces/${ns}/pods/web/log?previous=true`)).text).toBe(
      "one\ntwo\n",
    );
  });

  it("answers a bad body, a missing pod, an unknown container and an unknown action with a Status", async () => {
    const badBody = await control("web", "app", "log", { lines: "one" });
    expect(badBody.status).toBe(400);
    expect(badBody.json).toMatchObject({
      kind: "Status",
      message: "pod API: log needs lines, an array of strings",
    });
    expect((await control("ghost", "app", "log", { lines: [] })).status).toBe(404);
    const container = await control("web", "nope", "stop");
    expect(container.status).toBe(400);
    expect(container.json).toMatchObject({ message: "container nope is not valid for pod web" });
    expect((await control("web", "app", "explode")).status).toBe(404);
    expect((await t.call("GET", `/_kubesdk/pods/${ns}/web/app/log`)).status).toBe(405);
  });
});
