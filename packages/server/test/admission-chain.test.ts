import { describe, expect, it } from "vitest";
import type { AdmissionAttributes } from "../src/admission/attributes.js";
import { AdmissionChain } from "../src/admission/chain.js";
import { type AdmissionPlugin, defaultAdmissionChain, handlesOnly } from "../src/admission/index.js";
import { errors, StatusError } from "../src/api/status.js";
import { MvccStore } from "../src/storage/mvcc.js";

function attributes(overrides: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: "CREATE",
    kind: { group: "", version: "v1", kind: "ConfigMap" },
    resource: { group: "", version: "v1", resource: "configmaps" },
    subresource: "",
    namespace: "team-a",
    name: "settings",
    object: { metadata: { name: "settings" } },
    oldObject: undefined,
    userInfo: undefined,
    dryRun: false,
    ...overrides,
  };
}

const ctx = { store: new MvccStore(), now: () => 0 };

/** A plugin that records each phase it runs in, optionally answering with a promise. */
function recorder(name: string, log: string[], async = false): AdmissionPlugin {
  const note = (phase: string) => {
    log.push(`${name}.${phase}`);
    return async ? Promise.resolve() : undefined;
  };
  return {
    name,
    handles: handlesOnly("CREATE", "UPDATE"),
    admit: () => note("admit"),
    validate: () => note("validate"),
  };
}

describe("admission chain", () => {
  it("runs each phase through the plugins in order, synchronously while the plugins are", () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder("A", log), recorder("B", log)]);
    expect(chain.admit(attributes(), ctx)).toBeUndefined();
    expect(chain.validate(attributes(), ctx)).toBeUndefined();
    expect(log).toEqual(["A.admit", "B.admit", "A.validate", "B.validate"]);
  });

  it("waits for an async plugin before running the next one", async () => {
    const log: string[] = [];
    const chain = new AdmissionChain([recorder("A", log, true), recorder("B", log)]);
    const pending = chain.admit(attributes(), ctx);
    expect(pending).toBeInstanceOf(Promise);
    expect(log).toEqual(["A.admit"]);
    await pending;
    expect(log).toEqual(["A.admit", "B.admit"]);
  });

  it("skips plugins that do not handle the operation and stops at the first rejection", async () => {
    const log: string[] = [];
    const reject: AdmissionPlugin = {
      name: "Reject",
      handles: handlesOnly("UPDATE"),
      validate: async () => {
        throw errors.badRequest("refused");
      },
    };
    const chain = new AdmissionChain([reject, recorder("After", log)]);
    expect(chain.validate(attributes(), ctx)).toBeUndefined();
    expect(log).toEqual(["After.validate"]);
    log.length = 0;
    await expect(chain.validate(attributes({ operation: "UPDATE" }), ctx)).rejects.toBeInstanceOf(
      StatusError,
    );
    expect(log).toEqual([]);
  });

  it("lets a mutating plugin change the object in place", () => {
    const labeller: AdmissionPlugin = {
      name: "Labeller",
      handles: handlesOnly("CREATE"),
      admit(a) {
        (a.object?.metadata as Record<string, unknown>).labels = { admitted: "yes" };
      },
    };
    const a = attributes();
    new AdmissionChain([labeller]).admit(a, ctx);
    expect(a.object?.metadata).toEqual({ name: "settings", labels: { admitted: "yes" } });
  });

  it("the server's default chain rejects a create in a missing namespace with 404", () => {
    const chain = defaultAdmissionChain();
    expect(chain.names).toEqual([
      "NamespaceLifecycle",
      "LimitRanger",
      "ServiceAccount",
      "TaintNodesByCondition",
      "PodSecurity",
      "Priority",
      "DefaultTolerationSeconds",
      "DefaultStorageClass",
      "StorageObjectInUseProtection",
      "PersistentVolumeClaimResize",
      "RuntimeClass",
      "CertificateSubjectRestriction",
      "DefaultIngressClass",
      "MutatingAdmissionPolicy",
      "MutatingAdmissionWebhook",
      "ValidatingAdmissionPolicy",
      "ValidatingAdmissionWebhook",
      "ResourceQuota",
    ]);
    let caught: unknown;
    try {
      chain.validate(attributes(), ctx);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).statusCode).toBe(404);
  });
});
