import { NoAuth } from "@kubesdk/transport";
import { describe, expect, it } from "vitest";
import { isBuiltinGroup, Kube } from "../src/index.js";
import { codeOf } from "./error-code.js";

// No request is sent in these tests: they cover what the client decides before any I/O.
const connection = {
  server: "https://127.0.0.1:1",
  namespace: "from-context",
  tls: { rejectUnauthorized: true },
  auth: new NoAuth(),
  disableCompression: false,
  source: { kind: "custom" as const },
};

describe("Kube", () => {
  it("defaults namespaced requests to the connection's namespace, unless overridden", async () => {
    const kube = Kube.fromConnection(connection);
    expect(kube.namespace).toBe("from-context");
    expect(kube.resource("v1", "ConfigMap").requests.get("x").path).toBe(
      "/api/v1/namespaces/from-context/configmaps/x",
    );
    const other = Kube.fromConnection(connection, { namespace: "override" });
    expect(other.resource("apps/v1", "Deployment").requests.list().path).toBe(
      "/apis/apps/v1/namespaces/override/deployments",
    );
    await Promise.all([kube.close(), other.close()]);
  });

  it("resolves built-ins from the registry, with their subresources and verbs", async () => {
    const kube = Kube.fromConnection(connection);
    expect(kube.resource("apps/v1", "Deployment").target).toMatchObject({
      group: "apps",
      plural: "deployments",
      namespaced: true,
      builtin: true,
      subresources: ["scale", "status"],
    });
    expect(kube.resource("v1", "Namespace").target.namespaced).toBe(false);
    expect(codeOf(() => kube.resource("apps/v1", "NoSuchKind" as never))).toBe("UNKNOWN_RESOURCE");
    await kube.close();
  });

  it("checks hand-written resource descriptions", async () => {
    const kube = Kube.fromConnection(connection);
    const custom = kube.custom({ group: "example.com", version: "v1", plural: "things", namespaced: false });
    expect(custom.target.builtin).toBe(false);
    expect(custom.requests.get("a").path).toBe("/apis/example.com/v1/things/a");
    expect(
      codeOf(() => kube.custom({ group: "example.com", version: "", plural: "things", namespaced: true })),
    ).toBe("INVALID_OPTION");
    expect(
      codeOf(() => kube.custom({ group: "example.com", version: "v1", plural: "things" } as never)),
    ).toBe("INVALID_OPTION");
    expect(codeOf(() => kube.custom({ group: "a/b", version: "v1", plural: "x", namespaced: true }))).toBe(
      "INVALID_OPTION",
    );
    expect(codeOf(() => kube.custom({ group: "", version: "v1", plural: "Things", namespaced: true }))).toBe(
      "INVALID_OPTION",
    );
    expect(
      kube.custom({ group: "", version: "v1", plural: "things", namespaced: true }).requests.list().path,
    ).toBe("/api/v1/namespaces/from-context/things");
    await kube.close();
  });

  it("knows which groups are built in", () => {
    expect(isBuiltinGroup("")).toBe(true);
    expect(isBuiltinGroup("apps")).toBe(true);
    expect(isBuiltinGroup("stable.example.com")).toBe(false);
  });
});
