/**
 * One informer suite's fixtures: a target (with the request log attached), a transport, informers
 * that are stopped when the suite ends, and namespaces filled with ConfigMaps.
 */
import { Kube, type ReadClient } from "@kubesdk/client";
import { protobufCodec } from "@kubesdk/client/protobuf";
import { Informer, type InformerOptions } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { RunningServer, StartOptions } from "@kubesdk/server";
import type { HttpTransport } from "@kubesdk/transport";
import { afterAll, beforeAll } from "vitest";
import { startTarget, type TestTarget, testEncoding, uniqueName } from "../../support/target.js";
import { connect, createConfigMap, createNamespace, FAST_BACKOFF, RequestLog, until } from "./harness.js";

/** Informer options plus what to cache (default: ConfigMaps). */
export type SuiteInformerOptions<T extends KubernetesObject> = InformerOptions<T> & {
  readonly resource?: ReadClient<T, { items: T[] }>;
};

export interface InformerSuite {
  readonly t: TestTarget;
  /** The reference server (only in suites that run against it). */
  readonly server: RunningServer;
  readonly transport: HttpTransport;
  readonly log: RequestLog;
  /**
   * A client over a transport (the suite's by default); one per transport. It asks for protobuf
   * when the run does (KUBESDK_TEST_ENCODING=protobuf).
   */
  kube(transport?: HttpTransport): Kube;
  /** A new informer (ConfigMaps and a fast backoff unless told otherwise); stopped after the suite. */
  informer<T extends KubernetesObject = KubernetesObject>(
    options?: SuiteInformerOptions<T>,
    transport?: HttpTransport,
  ): Informer<T>;
  /** Starts an informer and waits for it to sync. */
  synced<T extends KubernetesObject>(informer: Informer<T>): Promise<Informer<T>>;
  /** A fresh namespace holding ConfigMaps cm-0 … cm-(count-1). */
  namespace(prefix: string, count?: number): Promise<string>;
}

export function useInformerSuite(options: StartOptions = {}): InformerSuite {
  const log = new RequestLog();
  const informers: Informer<KubernetesObject>[] = [];
  let target: TestTarget | undefined;
  let transport: HttpTransport | undefined;
  const clients = new WeakMap<HttpTransport, Kube>();
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is only available inside the suite's tests`);
    return value;
  };
  beforeAll(async () => {
    // Controllers off, like kube-apiserver in test:real (no controller-manager): no kube-root-ca.crt
    // or `default` account joins a namespace's objects, and no collector acts on owner references.
    target = await startTarget({ log: log.sink, controllers: false, ...options });
    transport = await connect(target);
  });
  afterAll(async () => {
    await Promise.all(informers.map((i) => i.stop()));
    await transport?.close();
    await target?.close();
  });
  const suite: InformerSuite = {
    get t() {
      return need(target, "the target");
    },
    get server() {
      return need(target?.reference, "the reference server");
    },
    get transport() {
      return need(transport, "the transport");
    },
    log,
    kube(tr: HttpTransport = suite.transport): Kube {
      let kube = clients.get(tr);
      if (kube === undefined) {
        kube = new Kube(tr, testEncoding === "protobuf" ? { protobuf: true, protobufCodec } : {});
        clients.set(tr, kube);
      }
      return kube;
    },
    informer<T extends KubernetesObject = KubernetesObject>(
      extra: SuiteInformerOptions<T> = {},
      tr: HttpTransport = suite.transport,
    ): Informer<T> {
      const { resource, ...options } = extra;
      const configMaps = suite.kube(tr).resource("v1", "ConfigMap") as unknown as ReadClient<
        T,
        { items: T[] }
      >;
      const informer = new Informer<T>(resource ?? configMaps, { backoff: FAST_BACKOFF, ...options });
      informers.push(informer as unknown as Informer<KubernetesObject>);
      return informer;
    },
    async synced<T extends KubernetesObject>(informer: Informer<T>): Promise<Informer<T>> {
      const done = until(informer, "synced");
      informer.start();
      await done;
      return informer;
    },
    async namespace(prefix: string, count = 0): Promise<string> {
      const ns = uniqueName(prefix);
      await createNamespace(suite.t, ns);
      for (let i = 0; i < count; i++) await createConfigMap(suite.t, ns, `cm-${i}`);
      return ns;
    },
  };
  return suite;
}
