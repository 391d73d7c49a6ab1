/**
 * HTTP/2 on offer (`TransportOptions.http2`): the transport asks for it in TLS negotiation and the
 * server decides. Both servers take h2 and serve a list, a watch and writes over one connection.
 * Off by default.
 */

import type { TLSSocket } from "node:tls";
import { Kube } from "@kubesdk/client";
import type { DispatcherFactory } from "@kubesdk/transport";
import { createDispatcher } from "@kubesdk/transport/internal";
import { Agent, buildConnector } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

let t: TestTarget;
let admin: Kube;
let ns: string;

beforeAll(async () => {
  t = await startTarget();
  admin = await Kube.fromKubeconfig({ kubeconfig: { path: t.kubeconfigPath } });
  ns = uniqueName("h2");
  await admin.resource("v1", "Namespace").create({ metadata: { name: ns } });
});
afterAll(async () => {
  await admin.resource("v1", "Namespace").delete(ns);
  await admin.close();
  await t.close();
});

/**
 * The transport's dispatcher with the negotiated protocol of each new connection noted: the
 * settings come from the transport (so `http2` is what the option made of them).
 */
function noting(protocols: (string | false)[], offered: (boolean | undefined)[]): DispatcherFactory {
  return (settings, certificate) => {
    offered.push(settings.http2);
    const tls = settings.tls;
    const connector = buildConnector({
      rejectUnauthorized: tls.rejectUnauthorized,
      ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
      ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
      ...(tls.key !== undefined ? { key: tls.key } : {}),
      ...(settings.http2 ? { allowH2: true } : {}),
    });
    if (certificate !== undefined) return createDispatcher(settings, certificate);
    return new Agent({
      ...(settings.http2 ? { allowH2: true } : {}),
      connect: (options, callback) =>
        connector(options, (error, socket) => {
          if (socket !== null) protocols.push((socket as TLSSocket).alpnProtocol ?? false);
          callback(error, socket as never);
        }),
    });
  };
}

describe("HTTP/2", () => {
  it("is off by default, and when offered the server's choice carries a list and a watch", async () => {
    const plainOffered: (boolean | undefined)[] = [];
    const plain = await Kube.fromKubeconfig({
      kubeconfig: { path: t.kubeconfigPath },
      transport: { dispatcherFactory: noting([], plainOffered) },
    });
    await plain.resource("v1", "ConfigMap").list({ namespace: ns });
    await plain.close();
    expect(plainOffered).toEqual([undefined]);

    const protocols: (string | false)[] = [];
    const offered: (boolean | undefined)[] = [];
    const kube = await Kube.fromKubeconfig({
      kubeconfig: { path: t.kubeconfigPath },
      namespace: ns,
      transport: { http2: true, dispatcherFactory: noting(protocols, offered) },
    });
    try {
      const configMaps = kube.resource("v1", "ConfigMap");
      const list = await configMaps.list();
      const watch = configMaps.watch({ resourceVersion: list.metadata?.resourceVersion ?? "0" });
      await configMaps.create({ metadata: { name: "over-h2" } });
      for await (const event of watch) if (event.object.metadata?.name === "over-h2") break;
      expect((await configMaps.get("over-h2")).metadata?.name).toBe("over-h2");
    } finally {
      await kube.close();
    }
    expect(offered).toEqual([true]);
    // h2 multiplexes the list, the watch and the writes over one connection.
    expect(protocols).toEqual(["h2"]);
  });
});
