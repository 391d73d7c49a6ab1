/**
 * Protobuf Status error bodies. The reference server always answers errors in JSON, so a small local
 * server stands in for kube-apiserver here (test:real covers the real one in test/client/protobuf.test.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeObject } from "@kubesdk/models";
import { isAlreadyExists, isNotFound, NoAuth } from "@kubesdk/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type KubeClient } from "../src/index.js";

const notFound = {
  apiVersion: "v1",
  kind: "Status",
  metadata: {},
  status: "Failure",
  message: 'configmaps "missing" not found',
  reason: "NotFound",
  details: { name: "missing", kind: "configmaps" },
  code: 404,
};

let server: http.Server;
let kube: KubeClient;
const accepts: (string | undefined)[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    accepts.push(req.headers.accept);
    const send = (code: number, body: Uint8Array) =>
      res.writeHead(code, { "content-type": "application/vnd.kubernetes.protobuf" }).end(body);
    if (req.url?.endsWith("/missing")) send(404, encodeObject(notFound));
    else if (req.method === "POST")
      send(
        409,
        encodeObject({
          ...notFound,
          message: 'configmaps "x" already exists',
          reason: "AlreadyExists",
          code: 409,
        }),
      );
    else send(500, new TextEncoder().encode("k8s\0garbage"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  kube = createClient(
    {
      server: `http://127.0.0.1:${port}`,
      namespace: "default",
      tls: { rejectUnauthorized: true },
      auth: new NoAuth(),
      disableCompression: false,
      source: { kind: "custom" },
    },
    { protobuf: true, transport: { retries: false } },
  );
});
afterAll(async () => {
  await kube.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("protobuf Status errors", () => {
  it("become ApiErrors with the server's reason, message and details", async () => {
    const error = await kube
      .resource("v1", "ConfigMap")
      .get("missing")
      .catch((e: unknown) => e);
    expect(accepts.at(-1)).toBe("application/vnd.kubernetes.protobuf, application/json");
    expect(isNotFound(error)).toBe(true);
    expect(error).toMatchObject({
      code: 404,
      reason: "NotFound",
      message: 'configmaps "missing" not found',
      details: { name: "missing", kind: "configmaps" },
    });
    const conflict = await kube
      .resource("v1", "ConfigMap")
      .create({ metadata: { name: "x" } })
      .catch((e: unknown) => e);
    expect(isAlreadyExists(conflict)).toBe(true);
  });

  it("keep the HTTP code when the body is not a decodable Status", async () => {
    const error = await kube
      .resource("v1", "ConfigMap")
      .get("other")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ApiError", code: 500 });
  });
});
