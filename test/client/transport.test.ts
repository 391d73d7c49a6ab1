/**
 * Contract tests of @kubesdk/transport against a real HTTPS API server: connection from the
 * kubeconfig, Status errors as typed ApiErrors, streamed bodies and watch decoding.
 */

import { protobufCodec } from "@kubesdk/client/protobuf";
import {
  type ApiError,
  createTransport,
  type HttpTransport,
  isAlreadyExists,
  isExpired,
  isInvalid,
  isNotFound,
  loadClusterConnection,
} from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTarget, type TestTarget, uniqueName } from "../support/target.js";

const PROTOBUF = "application/vnd.kubernetes.protobuf";

let t: TestTarget;
let transport: HttpTransport;
let ns: string;

beforeAll(async () => {
  t = await startTarget();
  // Protobuf is opt-in: the transport decodes protobuf Status bodies and watch frames with the
  // codec it is given (here the one kubesdk/protobuf publishes).
  transport = createTransport(await loadClusterConnection({ path: t.kubeconfigPath }), {
    protobufDecoder: protobufCodec.decode,
    protobufWatchFrameDecoder: protobufCodec.decodeWatchFrame,
  });
  ns = uniqueName("transport");
  await transport.requestJson({
    method: "POST",
    path: "/api/v1/namespaces",
    body: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } },
  });
});
afterAll(async () => {
  await transport.requestJson({ method: "DELETE", path: `/api/v1/namespaces/${ns}` });
  await transport.close();
  await t.close();
});

const configMaps = () => `/api/v1/namespaces/${ns}/configmaps`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ApiError,
  );

describe("requests", () => {
  it("reads JSON documents with status and headers", async () => {
    const res = await transport.requestJson<{ versions: string[] }>({ method: "GET", path: "/api" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.body.versions).toContain("v1");
  });

  it("sends query parameters and JSON bodies", async () => {
    const created = await transport.requestJson<{ metadata: { name: string } }>({
      method: "POST",
      path: configMaps(),
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "q", labels: { k: "v" } } },
    });
    expect(created.status).toBe(201);
    const listed = await transport.requestJson<{ items: { metadata: { name: string } }[] }>({
      method: "GET",
      path: configMaps(),
      query: { labelSelector: "k=v", limit: 5 },
    });
    expect(listed.body.items.map((i) => i.metadata.name)).toEqual(["q"]);
  });

  it("streams a body in chunks that add up to the document", async () => {
    const stream = await transport.stream({ method: "GET", path: "/api/v1" });
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream.body) chunks.push(chunk);
    const doc = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    expect(doc).toMatchObject({ kind: "APIResourceList", groupVersion: "v1" });
  });
});

describe("Status errors", () => {
  it("turns 404 into an ApiError with the server's message, details and the request", async () => {
    const error = await failure(transport.request({ method: "GET", path: `${configMaps()}/missing` }));
    expect(isNotFound(error)).toBe(true);
    expect(error).toMatchObject({
      name: "ApiError",
      statusCode: 404,
      reason: "NotFound",
      message: 'configmaps "missing" not found',
      details: { name: "missing", kind: "configmaps" },
      request: { method: "GET", path: `${configMaps()}/missing` },
    });
  });

  it("reads the protobuf Status the server answers with when protobuf was negotiated", async () => {
    const path = `${configMaps()}/missing`;
    const raw = await t.call("GET", path, { accept: PROTOBUF });
    expect([raw.status, raw.headers["content-type"]]).toEqual([404, PROTOBUF]);
    const error = await failure(transport.request({ method: "GET", path, accept: PROTOBUF }));
    expect(isNotFound(error)).toBe(true);
    expect(error).toMatchObject({
      reason: "NotFound",
      message: 'configmaps "missing" not found',
      details: { name: "missing", kind: "configmaps" },
      bodyExcerpt: undefined,
    });
  });

  it("turns 409 AlreadyExists and 422 Invalid (with causes) into ApiErrors", async () => {
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "twice" } };
    await transport.request({ method: "POST", path: configMaps(), body });
    expect(
      isAlreadyExists(await failure(transport.request({ method: "POST", path: configMaps(), body }))),
    ).toBe(true);

    const invalid = await failure(
      transport.request({
        method: "POST",
        path: configMaps(),
        body: { ...body, metadata: { name: "Not_Valid" } },
      }),
    );
    expect(isInvalid(invalid)).toBe(true);
    expect(invalid?.statusCode).toBe(422);
    expect(invalid?.causes.map((c) => c.field)).toContain("metadata.name");
  });
});

describe("watch", () => {
  it("decodes the JSON event stream into typed events", async () => {
    const start = await transport.requestJson<{ metadata: { resourceVersion: string } }>({
      method: "GET",
      path: configMaps(),
    });
    const watch = transport.watch<{ metadata: { name: string } }>({
      method: "GET",
      path: configMaps(),
      query: { resourceVersion: start.body.metadata.resourceVersion, fieldSelector: "metadata.name=w" },
    });
    await transport.request({
      method: "POST",
      path: configMaps(),
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "w" } },
    });
    await transport.request({ method: "DELETE", path: `${configMaps()}/w` });
    const seen: string[] = [];
    for await (const event of watch) {
      seen.push(`${event.type} ${event.object.metadata.name}`);
      if (event.type === "DELETED") break;
    }
    expect(seen).toEqual(["ADDED w", "DELETED w"]);
  });

  it.each([
    ["JSON", "application/json"],
    ["protobuf", PROTOBUF],
  ])(
    "throws the %s ERROR event of a watch from a compacted resourceVersion as a 410 ApiError",
    async (name, accept) => {
      // PodTemplates: a real server serves them from etcd (not its watch cache), so compaction expires them.
      const templates = `/api/v1/namespaces/${ns}/podtemplates`;
      const template = (suffix: string) => ({
        apiVersion: "v1",
        kind: "PodTemplate",
        metadata: { name: `${name.toLowerCase()}-${suffix}` },
        template: { spec: { containers: [{ name: "c", image: "busybox:1.36" }] } },
      });
      const first = await transport.requestJson<{ metadata: { resourceVersion: string } }>({
        method: "POST",
        path: templates,
        body: template("old"),
      });
      // Two more writes: a watch from rv N starts at N+1, which must be older than the compaction point.
      await transport.request({ method: "POST", path: templates, body: template("newer") });
      await transport.request({ method: "POST", path: templates, body: template("newest") });
      await t.compact();

      const watch = transport.watch({
        method: "GET",
        path: templates,
        query: { resourceVersion: first.body.metadata.resourceVersion },
        accept,
      });
      const error = await failure(watch.next());
      expect(isExpired(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 410, reason: "Expired" });
    },
  );
});
