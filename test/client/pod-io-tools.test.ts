/**
 * Copy (tar over exec) on both targets (on a real kube-apiserver through the test kubelet), then
 * metrics and the pod proxy. Reason for reference-only for those two: the metrics API and the pod
 * behind the proxy are test routes here (a bare kube-apiserver has no metrics-server, and its pod
 * proxy dials the pod IP, which no test pod has).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PodIoError } from "@kubesdk/client";
import type { ProcessContext } from "@kubesdk/server";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { createPod, podSuite } from "./pod-io-support.js";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function json(res: ServerResponse, body: unknown, code = 200): true {
  res.writeHead(code, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  return true;
}

// Stand-ins for what the reference server does not serve: the metrics API and a pod's HTTP port.
function toolRoutes(_req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const p = url.pathname;
  if (p === "/apis/metrics.k8s.io/v1beta1/nodes")
    return json(res, {
      items: [
        {
          apiVersion: "metrics.k8s.io/v1beta1",
          kind: "NodeMetrics",
          metadata: { name: "n1" },
          timestamp: "2026-01-01T00:00:00Z",
          window: "10s",
          usage: { cpu: "250m", memory: "64Mi" },
        },
      ],
    });
  if (/^\/apis\/metrics\.k8s\.io\/v1beta1\/namespaces\/[^/]+\/pods\/web$/.test(p))
    return json(res, {
      apiVersion: "metrics.k8s.io/v1beta1",
      kind: "PodMetrics",
      metadata: { name: "web" },
      timestamp: "2026-01-01T00:00:00Z",
      window: "10s",
      containers: [{ name: "main", usage: { cpu: "5m", memory: "10Mi" } }],
    });
  if (/\/pods\/web:8080\/proxy\/healthz$/.test(p)) {
    res.writeHead(200, { "Content-Type": "text/plain" }).end("ok from pod");
    return true;
  }
  return false;
}

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

describe.runIf(targetKind === "reference")("pod tool helpers", () => {
  const s = podSuite("podtools", { extensions: [toolRoutes] });

  it("reads metrics and proxies to a pod", async () => {
    const nodes = await s.kube.metrics.nodes();
    expect(nodes[0]?.usage.cpu).toBe("250m");
    expect((await s.kube.metrics.pod("web")).containers[0]?.usage.memory).toBe("10Mi");
    const body = await s.kube.pods.proxy("web", "/healthz", { port: 8080 });
    expect(Buffer.from(body).toString()).toBe("ok from pod");
  });
});
