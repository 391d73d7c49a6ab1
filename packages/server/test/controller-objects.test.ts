/**
 * The ServiceAccount controller and the root CA publisher commit their objects from templates
 * (src/controllers/stored-templates.ts) when nothing configured could change the write; what they commit is what
 * the write path stores for their requests (same events, same order, field order included, only
 * the uids differ), and with admission configured they still write through the write path.
 */
import { describe, expect, it } from "vitest";
import { AdmissionChain, defaultAdmissionChain } from "../src/admission/index.js";
import { bootstrap } from "../src/bootstrap.js";
import { rootCaPublisher } from "../src/controllers/root-ca-publisher.js";
import { serviceAccountController } from "../src/controllers/service-account-controller.js";
import { admissionIsPlain } from "../src/controllers/stored-templates.js";
import { DEFAULT_SETTINGS, type HandlerContext } from "../src/endpoints/handlers/context.js";
import type { StoredObject } from "../src/storage/mvcc.js";
import { fixedClockContext, recorded } from "./support/recorded-events.js";

const CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const SEED = [{ apiVersion: "v1", kind: "Namespace", metadata: { name: "shop" } }];

const context = fixedClockContext;

/** Resolves once the store has recorded `count` events (each controller write is one). */
function recordedEvents(ctx: HandlerContext, count: number): Promise<void> {
  return new Promise((resolve) => {
    if (ctx.store.eventsSince(0).length >= count) return resolve();
    const stop = ctx.store.subscribe(() => {
      if (ctx.store.eventsSince(0).length < count) return;
      stop();
      resolve();
    });
  });
}

/** The namespaces of a start plus a seeded one, then both controllers' start-up writes. */
async function start(ctx: HandlerContext): Promise<void> {
  expect(await bootstrap(ctx, SEED)).toEqual([]);
  const namespaces = ctx.store.count("/namespaces");
  const before = ctx.store.eventsSince(0).length;
  const controllers = [serviceAccountController(ctx), rootCaPublisher(ctx, CA)];
  await recordedEvents(ctx, before + 2 * namespaces);
  for (const c of controllers) c.close();
}

/** An admission plugin that labels every ServiceAccount it admits. */
const labelling = {
  name: "Labelling",
  handles: () => true,
  admit(a: { resource: { resource: string }; object?: Record<string, unknown> | undefined }) {
    if (a.resource.resource !== "serviceaccounts" || !a.object) return;
    const metadata = a.object.metadata as Record<string, unknown>;
    metadata.labels = { labelled: "yes" };
  },
};

describe("the controllers' start-up objects", () => {
  it("are stored as the write path stores the controllers' requests for them", async () => {
    const written = context(defaultAdmissionChain());
    expect(admissionIsPlain(written)).toBe(false);
    await start(written);
    const direct = context();
    expect(admissionIsPlain(direct)).toBe(true);
    await start(direct);
    expect(recorded(direct)).toEqual(recorded(written));
    // Four system namespaces and the seeded one: each gets a ServiceAccount and the root CA.
    expect(recorded(direct)).toHaveLength(15);
  });

  it("go through the write path when admission is configured", async () => {
    const ctx = context(new AdmissionChain([...defaultAdmissionChain().plugins, labelling]));
    await start(ctx);
    const account = ctx.store.get("/serviceaccounts", "shop/default") as StoredObject;
    expect(account.metadata.labels).toEqual({ labelled: "yes" });
  });

  it("are committed directly only while nothing stored configures admission", () => {
    const quota = context();
    quota.store.create("/resourcequotas", "shop/q", { metadata: { name: "q", namespace: "shop" } });
    expect(admissionIsPlain(quota)).toBe(false);
    const webhook = context();
    const bucket = "admissionregistration.k8s.io/validatingwebhookconfigurations";
    webhook.store.create(bucket, "w", { metadata: { name: "w" } });
    expect(admissionIsPlain(webhook)).toBe(false);
    const small = { ...context(), settings: { ...DEFAULT_SETTINGS, maxObjectBytes: 1024 } };
    expect(admissionIsPlain(small)).toBe(false);
  });
});
