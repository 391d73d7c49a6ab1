/**
 * Scenario 18: events cut at any byte, several events per chunk and multi-megabyte objects.
 * Reason for reference-only: the stream is cut into random pieces by a TCP proxy, which needs plain
 * HTTP (TLS would re-assemble records) — the reference server can serve it, a real apiserver cannot.
 */
import { Kube } from "@kubesdk/client";
import { Informer } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { HttpTransport } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prng } from "../support/prng.js";
import { targetKind } from "../support/target.js";
import {
  configMapsPath,
  connect,
  createConfigMap,
  FAST_BACKOFF,
  Recorder,
  serverState,
  storeState,
  until,
} from "./support/harness.js";
import { seedConfigMaps, updateConfigMapInStore } from "./support/reference.js";
import { useInformerSuite } from "./support/suite.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";

describe.runIf(targetKind === "reference")("decoding the stream", () => {
  const seed = Number(process.env.KUBESDK_CHUNK_SEED ?? 18);
  const s = useInformerSuite({
    insecureHttp: true,
    settings: { maxObjectBytes: 16 * 1024 * 1024, maxDataBytes: 16 * 1024 * 1024 },
  });
  let proxy: TcpProxy;
  let transport: HttpTransport;

  beforeAll(async () => {
    proxy = await startTcpProxy(s.server.port, { rechunk: { random: prng(seed), maxPieceBytes: 64 * 1024 } });
    transport = await connect(s.t, `http://127.0.0.1:${proxy.port}`);
  });
  afterAll(async () => {
    await transport.close();
    await proxy.close();
  });

  it(`S18: events split at any byte, several per chunk, and multi-megabyte objects decode correctly (seed ${seed})`, async () => {
    const server = s.server;
    const ns = await s.namespace("s18");
    // Multi-byte characters make cuts inside UTF-8 sequences likely.
    const big = "é😀a\u00ff\u4e2d".repeat(200_000);
    expect(Buffer.byteLength(big)).toBeGreaterThan(2_000_000);
    await createConfigMap(s.t, ns, "big-listed", { payload: big });

    const informer = new Informer(new Kube(transport).resource("v1", "ConfigMap"), {
      namespace: ns,
      backoff: FAST_BACKOFF,
    });
    const recorder = new Recorder();
    informer.addEventHandler(recorder.handlers);
    const errors: Error[] = [];
    informer.on("error", (e) => errors.push(e));
    const synced = until(informer, "synced");
    informer.start();
    try {
      await synced;
      await createConfigMap(s.t, ns, "big-watched", { payload: `${big}!` });
      // A burst written in one turn: the server sends these frames back to back, the proxy re-cuts them.
      const names = Array.from({ length: 100 }, (_, i) => `small-${i}`);
      seedConfigMaps(server, ns, names);
      for (const name of names) updateConfigMapInStore(server, ns, name, { v: "1", text: "ü✓" });
      await recorder.until((l) => l.length === 2 + 200, "all 202 notifications", 30_000);

      expect(errors).toEqual([]);
      expect(informer.stats().watches).toBe(1);
      expect(recorder.of("add")).toHaveLength(102);
      expect(recorder.of("update")).toHaveLength(100);
      const get = (name: string) =>
        informer.store.get(`${ns}/${name}`) as KubernetesObject & { data: Record<string, string> };
      expect(get("big-listed").data.payload).toBe(big);
      expect(get("big-watched").data.payload).toBe(`${big}!`);
      expect(get("small-99").data).toEqual({ v: "1", text: "ü✓" });
      expect(storeState(informer)).toEqual(await serverState(s.t, configMapsPath(ns)));
    } finally {
      await informer.stop();
    }
  });
});
