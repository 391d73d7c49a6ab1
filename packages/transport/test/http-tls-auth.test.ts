import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiError,
  ConnectionError,
  ExecAuth,
  isUnauthorized,
  loadKubeconfig,
  StaticTokenAuth,
  TlsError,
} from "../src/index.js";
import { writeFakePlugin } from "./helpers/exec-plugin.js";
import { connectionTo, useHarness } from "./helpers/harness.js";
import { simpleKubeconfig, writeKubeconfig } from "./helpers/kubeconfig.js";
import { generatePki, serverTls, type TestPki } from "./helpers/pki.js";
import { rejection } from "./helpers/rejection.js";
import { makeTempDir } from "./helpers/temp-dir.js";
import { sendJson, statusBody } from "./helpers/test-server.js";

let tmp: { dir: string; remove: () => void };
let pki: TestPki;
const harness = useHarness();

beforeAll(() => {
  tmp = makeTempDir();
  pki = generatePki(tmp.dir);
});
afterAll(() => tmp.remove());

const okHandler = (_: unknown, __: unknown, res: http.ServerResponse) =>
  sendJson(res, 200, { kind: "NamespaceList", items: [] });

describe("TLS", () => {
  it("verifies the server with the kubeconfig CA and presents the client certificate", async () => {
    const s = await harness.serve(okHandler, serverTls(pki, true));
    const file = writeKubeconfig(
      pki.dir,
      "kubeconfig",
      simpleKubeconfig({
        server: s.url,
        cluster: { "certificate-authority": "ca.crt" },
        user: { "client-certificate": "client.crt", "client-key": "client.key", token: "tls-token" },
      }),
    );
    const conn = await (await loadKubeconfig({ path: file })).resolve();
    const transport = harness.transport(conn);
    const res = await transport.requestJson<{ kind: string }>({ method: "GET", path: "/api/v1/namespaces" });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("NamespaceList");
    expect(s.requests[0]?.clientCn).toBe("alice");
    expect(s.requests[0]?.headers.authorization).toBe("Bearer tls-token");
    expect(s.requests[0]?.headers["user-agent"]).toMatch(
      /^kubesdk\/\d+\.\d+\.\d+ \(node \d+\.\d+\.\d+; \w+\/\w+\)$/,
    );
  });

  it("rejects a server certificate from an untrusted CA with a TlsError", async () => {
    const s = await harness.serve(okHandler, serverTls(pki));
    const transport = harness.transport(connectionTo(s.url), { retries: false });
    const err = await rejection(transport.request({ method: "GET", path: "/api" }));
    expect(err).toBeInstanceOf(TlsError);
    expect(err).toMatchObject({ code: "TLS_ERROR", tlsCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
    expect(s.requests).toHaveLength(0);
  });

  it("checks the certificate against tls-server-name", async () => {
    const s = await harness.serve(okHandler, serverTls(pki));
    const tls = (servername: string) => ({
      rejectUnauthorized: true,
      ca: Buffer.from(pki.caCert),
      servername,
    });
    const good = harness.transport(
      connectionTo(s.url.replace("127.0.0.1", "localhost"), { tls: tls("kube.test") }),
    );
    expect((await good.request({ method: "GET", path: "/api" })).status).toBe(200);
    const bad = harness.transport(connectionTo(s.url, { tls: tls("wrong.test") }), { retries: false });
    expect(await rejection(bad.request({ method: "GET", path: "/api" }))).toMatchObject({
      code: "TLS_ERROR",
      tlsCode: "ERR_TLS_CERT_ALTNAME_INVALID",
    });
  });

  it("skips verification with insecure-skip-tls-verify", async () => {
    const s = await harness.serve(okHandler, serverTls(pki));
    const transport = harness.transport(connectionTo(s.url, { tls: { rejectUnauthorized: false } }));
    expect((await transport.request({ method: "GET", path: "/api" })).status).toBe(200);
  });

  it("uses a client certificate returned by an exec plugin", async () => {
    const s = await harness.serve(okHandler, serverTls(pki, true));
    const plugin = writeFakePlugin(path.join(tmp.dir, "cert-plugin"), "p", {
      apiVersion: "client.authentication.k8s.io/v1",
      clientCertificateData: pki.clientCert,
      clientKeyData: pki.clientKey,
    });
    const auth = new ExecAuth({
      plugin: {
        command: plugin.command,
        args: [],
        env: [],
        apiVersion: "client.authentication.k8s.io/v1",
        interactiveMode: "Never",
        provideClusterInfo: false,
      },
    });
    const transport = harness.transport(
      connectionTo(s.url, { auth, tls: { rejectUnauthorized: true, ca: Buffer.from(pki.caCert) } }),
    );
    expect((await transport.request({ method: "GET", path: "/api" })).status).toBe(200);
    expect(s.requests[0]?.clientCn).toBe("alice");
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe("credentials over HTTP", () => {
  it("sends a static bearer token; a 401 is final for it", async () => {
    const s = await harness.serve((seen, _req, res) =>
      seen.headers.authorization === "Bearer good"
        ? sendJson(res, 200, {})
        : sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized")),
    );
    const good = harness.transport(connectionTo(s.url, { auth: new StaticTokenAuth("good") }));
    expect((await good.request({ method: "GET", path: "/api" })).status).toBe(200);
    const bad = harness.transport(connectionTo(s.url, { auth: new StaticTokenAuth("bad") }));
    const err = await rejection(bad.request({ method: "GET", path: "/api" }));
    expect(isUnauthorized(err)).toBe(true);
    expect((err as ApiError).message).not.toContain("bad");
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(["Bearer good", "Bearer bad"]);
  });

  it("re-runs an exec plugin once after a 401 and retries with the new token", async () => {
    const s = await harness.serve((seen, _req, res) =>
      seen.headers.authorization === "Bearer tok-2"
        ? sendJson(res, 201, { kind: "ConfigMap" })
        : sendJson(res, 401, statusBody(401, "Unauthorized", "Unauthorized")),
    );
    const plugin = writeFakePlugin(path.join(tmp.dir, "token-plugin"), "p", {
      apiVersion: "client.authentication.k8s.io/v1beta1",
      tokenPrefix: "tok",
    });
    const file = writeKubeconfig(
      path.join(tmp.dir, "token-plugin"),
      "kubeconfig",
      simpleKubeconfig({
        server: s.url,
        user: { exec: { apiVersion: "client.authentication.k8s.io/v1beta1", command: "./p" } },
      }),
    );
    const conn = await (await loadKubeconfig({ path: file })).resolve({}, { stdinIsTTY: false });
    const transport = harness.transport(conn, { retries: false });
    const res = await transport.requestJson({
      method: "POST",
      path: "/api/v1/namespaces/default/configmaps",
      body: { kind: "ConfigMap" },
    });
    expect(res.status).toBe(201);
    expect(plugin.runs()).toBe(2);
    expect(s.requests.map((r) => [r.method, r.headers.authorization, r.body])).toEqual([
      ["POST", "Bearer tok-1", '{"kind":"ConfigMap"}'],
      ["POST", "Bearer tok-2", '{"kind":"ConfigMap"}'],
    ]);
    // The new token is cached: no further plugin run.
    await transport.request({ method: "POST", path: "/api/v1/namespaces/default/configmaps", body: {} });
    expect(plugin.runs()).toBe(2);
  });

  it("goes through an http proxy (CONNECT) when proxy-url is set", async () => {
    const s = await harness.serve(okHandler, serverTls(pki));
    const connects: string[] = [];
    const sockets = new Set<net.Socket>();
    const proxy = http.createServer();
    proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      connects.push(req.url ?? "");
      const [host, port] = (req.url ?? "").split(":");
      const upstream = net.connect(Number(port), host, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    harness.defer(
      () =>
        new Promise<void>((resolve) => {
          for (const sock of sockets) sock.destroy();
          proxy.close(() => resolve());
        }),
    );
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const conn = connectionTo(s.url, {
      proxyUrl,
      tls: { rejectUnauthorized: true, ca: Buffer.from(pki.caCert) },
    });
    const transport = harness.transport(conn);
    expect((await transport.request({ method: "GET", path: "/version" })).status).toBe(200);
    expect(connects).toEqual([`127.0.0.1:${s.port}`]);
    expect(s.requests[0]?.url).toBe("/version");
  });

  it("refuses a server that demands a client certificate we do not have", async () => {
    const s = await harness.serve(okHandler, serverTls(pki, true));
    const transport = harness.transport(
      connectionTo(s.url, { tls: { rejectUnauthorized: true, ca: Buffer.from(pki.caCert) } }),
      { retries: false },
    );
    const err = await rejection(transport.request({ method: "GET", path: "/api" }));
    // TLS 1.3 reports the missing certificate after the handshake: as an alert or as a reset.
    expect(err instanceof TlsError || err instanceof ConnectionError).toBe(true);
    expect(s.requests).toHaveLength(0);
  });
});
