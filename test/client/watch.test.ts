import type { coreV1 } from "@kubesdk/models";
import type { DispatcherFactory, WatchEvent } from "@kubesdk/transport";
import { Agent } from "undici";
import { describe, expect, it } from "vitest";
import { clientFor, namespacedSuite } from "./support.js";

const suite = namespacedSuite("client-watch");

const configMaps = () => suite.kube.resource("v1", "ConfigMap");

/** A pool of exactly one connection: a request after a watch only gets through if the watch let go of it. */
const singleConnection: DispatcherFactory = (settings) =>
  new Agent({
    connections: 1,
    connect: {
      rejectUnauthorized: settings.tls.rejectUnauthorized,
      ...(settings.tls.ca !== undefined ? { ca: settings.tls.ca } : {}),
    },
  });

describe("watch", () => {
  it("delivers typed ADDED, MODIFIED and DELETED events after a resourceVersion", async () => {
    const start = await configMaps().list();
    const watch = configMaps().watch({
      resourceVersion: start.metadata?.resourceVersion as string,
      fieldSelector: "metadata.name=watched",
    });
    await configMaps().create({ metadata: { name: "watched" }, data: { v: "1" } });
    await configMaps().patch("watched", { type: "merge", patch: { data: { v: "2" } } });
    await configMaps().delete("watched");

    const events: WatchEvent<coreV1.ConfigMap>[] = [];
    for await (const event of watch) {
      events.push(event);
      if (event.type === "DELETED") break;
    }
    expect(events.map((e) => [e.type, e.object.data?.v])).toEqual([
      ["ADDED", "1"],
      ["MODIFIED", "2"],
      ["DELETED", "2"],
    ]);
    expect(events.every((e) => e.object.kind === "ConfigMap" && e.object.metadata?.name === "watched")).toBe(
      true,
    );
  });

  it("releases the connection when the loop breaks", async () => {
    const single = await clientFor(suite.t, suite.ns, {
      transport: { dispatcherFactory: singleConnection, timeouts: { requestMs: 10_000 } },
    });
    try {
      const cms = single.resource("v1", "ConfigMap");
      await cms.create({ metadata: { name: "release" } });
      for await (const event of cms.watch({ fieldSelector: "metadata.name=release" })) {
        expect(event.type).toBe("ADDED");
        break;
      }
      // Only possible on the one connection if the watch gave it back.
      expect((await cms.get("release")).metadata?.name).toBe("release");
    } finally {
      await single.close();
    }
  });

  it("ends a waiting iteration when closed, and rejects it with ABORTED when the signal aborts", async () => {
    const idle = configMaps().watch({ labelSelector: "never=matches", resourceVersion: "0" });
    const pending = idle.next();
    idle.close();
    expect(await pending).toMatchObject({ done: true });

    const controller = new AbortController();
    const aborted = configMaps().watch({ labelSelector: "never=matches", signal: controller.signal });
    const waiting = aborted.next();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "RequestAbortedError", code: "ABORTED" });
  });

  it("streams the current state, then a bookmark marking its end (sendInitialEvents)", async () => {
    await configMaps().create({ metadata: { name: "initial-a", labels: { initial: "yes" } } });
    await configMaps().create({ metadata: { name: "initial-b", labels: { initial: "yes" } } });
    const added: string[] = [];
    let bookmark: coreV1.ConfigMap | undefined;
    for await (const event of configMaps().watch({ sendInitialEvents: true, labelSelector: "initial=yes" })) {
      if (event.type === "ADDED") added.push(event.object.metadata?.name as string);
      if (event.type === "BOOKMARK") {
        bookmark = event.object;
        break;
      }
    }
    expect(added.sort()).toEqual(["initial-a", "initial-b"]);
    expect(bookmark?.metadata?.annotations?.["k8s.io/initial-events-end"]).toBe("true");
    expect(bookmark?.metadata?.resourceVersion).toMatch(/^\d+$/);
  });
});
