/**
 * Copy (tar over exec), metrics and the pod proxy on both targets. On a real kube-apiserver pods run
 * in the test kubelet; their HTTP ports are served on this machine's non-loopback address (the
 * pods' podIP, which the apiserver's proxy dials), and metrics.k8s.io is the kubelet runtime's
 * metrics endpoint aggregated through an APIService.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PodIoError } from "@kubesdk/client";
import type { PodHttpHandler, PodRef, ProcessContext } from "@kubesdk/server";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { podAddress } from "../support/kubelet.js";
import { createServiceEndpoint } from "../support/service-endpoint.js";
import { createPod, httpCodeOf, podSuite } from "./pod-io-support.js";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// `tar cf - -C / evil` answers with an archive whose entry climbs out of the target directory.
async function evilTar(proc: ProcessContext): Promise<number | undefined> {
  if (proc.command.at(-1) !== "evil") return undefined;
  const pack = tar.pack();
  pack.entry({ name: "../escaped.txt" }, "gotcha");
  pack.finalize();
  for await (const chunk of pack) await new Promise((resolve) => proc.stdout.write(chunk as Buffer, resolve));
  return 0;
}

function tree(root: string): void {
  mkdirSync(join(root, "site", "assets", "img"), { recursive: true });
  writeFileSync(join(root, "site", "index.html"), "<h1>hi</h1>\n");
  writeFileSync(join(root, "site", "assets", "app.js"), "console.log(1)\n");
  writeFileSync(join(root, "site", "assets", "img", "blob.bin"), randomBytes(300 * 1024));
}

describe("pod copy", () => {
  const s = podSuite("podcopy", { pods: { exec: evilTar } });

  it("copies a directory tree into a container and back", async () => {
    await createPod(s.kube, "files");
    const src = mkdtempSync(join(tmpdir(), "kubesdk-cp-src-"));
    tree(src);
    await s.kube.pods.copyTo("files", join(src, "site"), "/srv");
    const files = s.pods.files(s.ns, "files", "main");
    expect([...(files?.keys() ?? [])].sort()).toEqual([
      "/srv/site/assets/app.js",
      "/srv/site/assets/img/blob.bin",
      "/srv/site/index.html",
    ]);
    expect((await s.kube.pods.run("files", ["cat", "/srv/site/index.html"])).stdout.toString()).toBe(
      "<h1>hi</h1>\n",
    );

    const out = mkdtempSync(join(tmpdir(), "kubesdk-cp-out-"));
    expect(await s.kube.pods.copyFrom("files", "/srv/site", out)).toBe(3);
    for (const rel of ["index.html", "assets/app.js", "assets/img/blob.bin"]) {
      expect(sha(readFileSync(join(out, "site", rel)))).toBe(sha(readFileSync(join(src, "site", rel))));
    }
  });

  it("fails a copy of a missing path with COPY_FAILED and the container's message", async () => {
    const out = mkdtempSync(join(tmpdir(), "kubesdk-cp-missing-"));
    const err = await s.kube.pods.copyFrom("files", "/nope", out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PodIoError);
    expect((err as PodIoError).code).toBe("COPY_FAILED");
    expect((err as PodIoError).message).toContain("No such file or directory");
  });

  it("refuses archive entries that would land outside the target directory", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "kubesdk-cp-evil-")), "inside");
    const err = await s.kube.pods.copyFrom("files", "/evil", out).catch((e: unknown) => e);
    expect((err as PodIoError).code).toBe("COPY_FAILED");
    expect(existsSync(join(out, "..", "escaped.txt"))).toBe(false);
  });
});

// The pod "web" answers /healthz itself and reads JSON bodies; other pods get the default echo server.
function webHttp(pod: PodRef): PodHttpHandler | undefined {
  if (pod.pod !== "web") return undefined;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === "/healthz")
      return void res.writeHead(200, { "Content-Type": "text/plain" }).end("ok from pod");
    res.writeHead(404, { "Content-Type": "text/plain" }).end(`no ${req.url}`);
  };
}

describe("pod tool helpers", () => {
  const s = podSuite("podtools", { pods: { http: webHttp } }, true, { metrics: true });

  it("proxies HTTP requests to a pod's port, the hook's or the default echo server", async () => {
    await createPod(s.kube, "web", ["main"], { app: "web" });
    await createPod(s.kube, "plain");
    const webPort = await s.exposePort("web", 8080);
    const body = await s.kube.pods.proxy("web", "/healthz", { port: webPort });
    expect(Buffer.from(body).toString()).toBe("ok from pod");
    const plainPort = await s.exposePort("plain", 8081);
    const echoed = await s.kube.pods.proxy("plain", "/hello", {
      port: plainPort,
      method: "POST",
      query: { q: "1" },
      body: Buffer.from("payload"),
    });
    expect(Buffer.from(echoed).toString()).toBe("POST /hello?q=1\npayload");
  });

  // kube-apiserver 1.37 picks the endpoint from EndpointSlices; older releases read Endpoints.
  it("proxies to a Service through its endpoint's pod, by port name or number", async () => {
    const port = await s.exposePort("web", 8080);
    const ip = podAddress() ?? "10.244.0.10";
    const base = `/api/v1/namespaces/${s.ns}`;
    const http = { name: "http", port: 80 };
    await createServiceEndpoint(s.t, {
      namespace: s.ns,
      name: "websvc",
      port: http,
      ip,
      targetPort: port,
      pod: "web",
    });
    for (const id of ["websvc:http", "websvc:80"]) {
      const r = await s.t.call("GET", `${base}/services/${id}/proxy/healthz`);
      expect([r.status, r.text]).toEqual([200, "ok from pod"]);
    }
    const unknownPort = await s.t.call("GET", `${base}/services/websvc:81/proxy/healthz`);
    expect(unknownPort.status).toBe(503);
    const spec = { ports: [{ ...http, targetPort: port }] };
    await s.t.call("POST", `${base}/services`, { body: { metadata: { name: "empty" }, spec } });
    const none = await s.t.call("GET", `${base}/services/empty:http/proxy/`);
    expect([none.status, none.json?.message]).toEqual([503, 'no endpoints available for service "empty"']);
  });

  it("reports a node's usage as the sum of its pods' until it is set, a pod's as its requests", async () => {
    const node = s.nodeName ?? "podtools-node";
    if (s.nodeName === undefined) await s.kube.resource("v1", "Node").create({ metadata: { name: node } });
    const requests = { cpu: "100m", memory: "1Mi" };
    await s.kube.resource("v1", "Pod").create({
      metadata: { name: "onnode" },
      spec: { nodeName: node, containers: [{ name: "main", image: "busybox", resources: { requests } }] },
    });
    expect((await s.kube.metrics.pod("onnode")).containers[0]?.usage).toEqual(requests);
    // On a real apiserver the suite's other pods (1m and 8Mi each by default) run on that node too.
    const expected = s.nodeName ? { cpu: "102m", memory: "17408Ki" } : { cpu: "100m", memory: "1024Ki" };
    expect((await s.kube.metrics.node(node)).usage).toEqual(expected);
  });

  it("reads node and pod metrics from the pod runtime's usage", async () => {
    const node = s.nodeName ?? "podtools-node";
    s.pods.setNodeUsage(node, { cpu: "250m", memory: "64Mi" });
    s.pods.setUsage(s.ns, "web", "main", { cpu: "5m", memory: "10Mi" });
    const nodes = await s.kube.metrics.nodes();
    expect(nodes.find((n) => n.metadata.name === node)?.usage).toEqual({ cpu: "250m", memory: "64Mi" });
    expect((await s.kube.metrics.node(node)).usage.cpu).toBe("250m");
    const web = await s.kube.metrics.pod("web");
    expect(web.containers).toEqual([{ name: "main", usage: { cpu: "5m", memory: "10Mi" } }]);
    expect(web.metadata.labels).toEqual({ app: "web" });
    const inNs = await s.kube.metrics.pods();
    expect(inNs.map((p) => p.metadata.name).sort()).toEqual(["onnode", "plain", "web"]);
    // A container with no usage set reports the defaults.
    expect(inNs.find((p) => p.metadata.name === "plain")?.containers[0]?.usage).toEqual({
      cpu: "1m",
      memory: "8Mi",
    });
    const selected = await s.kube.metrics.pods({ labelSelector: "app=web" });
    expect(selected.map((p) => p.metadata.name)).toEqual(["web"]);
    const all = await s.kube.metrics.pods({ allNamespaces: true });
    expect(all.some((p) => p.metadata.name === "web" && p.metadata.namespace === s.ns)).toBe(true);
    const missing = await s.kube.metrics.pod("nope").catch((e: unknown) => e);
    expect(httpCodeOf(missing)).toBe(404);
    const bad = await s.kube.metrics.pods({ labelSelector: "app in (" }).catch((e: unknown) => e);
    expect(httpCodeOf(bad)).toBe(400);
    expect((await s.t.call("GET", "/apis/metrics.k8s.io/v1beta1/pods/web")).status).toBe(404);
  });

  it("refuses metrics and proxy requests without credentials", async () => {
    for (const path of [
      "/apis/metrics.k8s.io/v1beta1/nodes",
      `/apis/metrics.k8s.io/v1beta1/namespaces/${s.ns}/pods/web`,
      `/api/v1/namespaces/${s.ns}/pods/web:8080/proxy/healthz`,
    ])
      expect((await s.t.call("GET", path, { anonymous: true })).status).toBe(403);
  });

  it("lists metrics.k8s.io in discovery", async () => {
    const groups = await s.t.call("GET", "/apis");
    expect(groups.json.groups.map((g: { name: string }) => g.name)).toContain("metrics.k8s.io");
    const list = await s.t.call("GET", "/apis/metrics.k8s.io/v1beta1");
    expect(
      list.json.resources.map((r: { name: string; kind: string }) => `${r.name}:${r.kind}`).sort(),
    ).toEqual(["nodes:NodeMetrics", "pods:PodMetrics"]);
  });
});
