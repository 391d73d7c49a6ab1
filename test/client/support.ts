/**
 * Helpers shared by the client contract suites: clients built from the target's kubeconfig (so the
 * same code runs against the reference server and a real kube-apiserver), per-suite namespaces,
 * and a dispatcher that records every request the transport sends.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kube, type KubeFromKubeconfigOptions } from "@kubesdk/client";
import type { appsV1 } from "@kubesdk/models";
import type { DispatcherFactory } from "@kubesdk/transport";
import { createDispatcher } from "@kubesdk/transport/internal";
import { afterAll, beforeAll } from "vitest";
import YAML from "yaml";
import { suiteView } from "../support/suite-view.js";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

// biome-ignore lint/suspicious/noExplicitAny: kubeconfig documents are edited as plain YAML.
type KubeconfigDocument = any;

/** A copy of the target's kubeconfig changed by `edit`; returns its path. */
export function editedKubeconfig(t: TestTarget, edit: (doc: KubeconfigDocument) => void): string {
  const doc = YAML.parse(readFileSync(t.kubeconfigPath, "utf8"));
  edit(doc);
  const path = join(mkdtempSync(join(tmpdir(), "kubesdk-client-")), "kubeconfig");
  writeFileSync(path, YAML.stringify(doc));
  return path;
}

/** The current context entry of a kubeconfig document. */
export function currentContext(doc: KubeconfigDocument): {
  cluster: string;
  user: string;
  namespace?: string;
} {
  const entry =
    doc.contexts.find((c: { name: string }) => c.name === doc["current-context"]) ?? doc.contexts[0];
  return entry.context;
}

/**
 * A client for the target whose kubeconfig context names `namespace`, so calls without a
 * namespace exercise the defaulting from the kubeconfig context.
 */
export function clientFor(
  t: TestTarget,
  namespace?: string,
  options: Omit<KubeFromKubeconfigOptions, "kubeconfig"> = {},
): Promise<Kube> {
  const path = editedKubeconfig(t, (doc) => {
    const context = currentContext(doc);
    if (namespace === undefined) delete context.namespace;
    else context.namespace = namespace;
  });
  return Kube.fromKubeconfig({ ...options, kubeconfig: { path } });
}

/** Creates a namespace unique to this run (the real server's namespaces outlive the suite). */
export async function createNamespace(kube: Kube, prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  await kube.resource("v1", "Namespace").create({ metadata: { name } });
  return name;
}

/** Deletes a namespace; on a real server without controllers it stays Terminating, which is harmless. */
export async function deleteNamespace(kube: Kube, name: string): Promise<void> {
  await kube.resource("v1", "Namespace").delete(name);
}

/** What a suite from {@link namespacedSuite} works with, available once its beforeAll has run. */
export interface NamespacedSuite {
  readonly t: TestTarget;
  /** A client whose kubeconfig context names `ns`, so calls without a namespace land there. */
  readonly kube: Kube;
  readonly ns: string;
}

/**
 * Registers beforeAll/afterAll that start the target, create a namespace for the suite and a
 * client defaulting to it, and remove them again.
 */
export function namespacedSuite(
  prefix: string,
  options: Omit<KubeFromKubeconfigOptions, "kubeconfig"> = {},
): NamespacedSuite {
  let state: NamespacedSuite | undefined;
  beforeAll(async () => {
    const t = await startTarget();
    const admin = await clientFor(t);
    const ns = await createNamespace(admin, prefix);
    await admin.close();
    state = { t, ns, kube: await clientFor(t, ns, options) };
  });
  afterAll(async () => {
    if (state === undefined) return;
    await deleteNamespace(state.kube, state.ns);
    await state.kube.close();
    await state.t.close();
  });
  return suiteView(() => state);
}

/** One request as the dispatcher saw it, with the Content-Types that went each way. */
export interface Exchange {
  readonly request: string;
  readonly accept: string | undefined;
  readonly requestContentType: string | undefined;
  responseContentType: string | undefined;
}

function headerOf(headers: unknown, name: string): string | undefined {
  const value = (headers as Record<string, string | string[] | undefined> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A dispatcher factory that records every request (method and path with query) and the
 * Content-Types on the wire, as sent and received, before anything else interprets them.
 */
export function recordingDispatcher(): {
  factory: DispatcherFactory;
  requests: string[];
  exchanges: Exchange[];
} {
  const requests: string[] = [];
  const exchanges: Exchange[] = [];
  const factory: DispatcherFactory = (settings, certificate) =>
    createDispatcher(settings, certificate).compose((dispatch) => (options, handler) => {
      const exchange: Exchange = {
        request: `${options.method} ${options.path}`,
        accept: headerOf(options.headers, "accept"),
        requestContentType: headerOf(options.headers, "content-type"),
        responseContentType: undefined,
      };
      requests.push(exchange.request);
      exchanges.push(exchange);
      const recording = new Proxy(handler, {
        get(target, key) {
          if (key === "onResponseStart") {
            return (...args: Parameters<NonNullable<typeof handler.onResponseStart>>) => {
              exchange.responseContentType = headerOf(args[2], "content-type");
              return target.onResponseStart?.(...args);
            };
          }
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return dispatch(options, recording);
    });
  return { factory, requests, exchanges };
}

/** Served names of a test CRD. */
export interface TestCrdNames {
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
}

/**
 * Creates a namespaced CRD with spec/status schema, status and scale subresources and a printer
 * column, and resolves once it is Established (observed through a watch, not by polling).
 */
export async function createEstablishedCrd(kube: Kube, names: TestCrdNames): Promise<void> {
  const crds = kube.resource("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  const name = `${names.plural}.${names.group}`;
  const created = await crds.create({
    metadata: { name },
    spec: {
      group: names.group,
      scope: "Namespaced",
      names: {
        plural: names.plural,
        singular: names.kind.toLowerCase(),
        kind: names.kind,
        listKind: `${names.kind}List`,
      },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    size: { type: "integer" },
                    color: { type: "string" },
                    replicas: { type: "integer" },
                  },
                },
                status: {
                  type: "object",
                  properties: { phase: { type: "string" }, replicas: { type: "integer" } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
          },
          additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }],
        },
      ],
    },
  });
  const established = (crd: typeof created) =>
    crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True") === true;
  if (established(created)) return;
  for await (const event of crds.watch({
    fieldSelector: `metadata.name=${name}`,
    resourceVersion: created.metadata?.resourceVersion as string,
  })) {
    if (established(event.object)) return;
  }
}

/** Deletes a test CRD (and with it its objects). */
export async function deleteCrd(kube: Kube, names: TestCrdNames): Promise<void> {
  await kube
    .resource("apiextensions.k8s.io/v1", "CustomResourceDefinition")
    .delete(`${names.plural}.${names.group}`);
}

/** A minimal valid Deployment: one container "main", selected by the label app=<name>. */
export function testDeployment(
  name: string,
  replicas = 1,
  labels: Readonly<Record<string, string>> = {},
): appsV1.Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: { app: name, ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "main", image: "nginx:1.27" }] },
      },
    },
  };
}
