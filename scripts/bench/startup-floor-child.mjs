/**
 * One fresh process of startup-floor.ts. Both modes first import `@kubesdk/server` and
 * `@kubesdk/server/testing` (the same heap and loaded code), then time one start to one answer:
 *   reference — reference-server-child.mjs's measure: `startTestServer()`, then
 *               `cluster.client().resource("v1", "Namespace").get("default")`;
 *   bare      — the least any in-process HTTPS server can do for the same exchange: a fresh CA and
 *               serving certificate (`createCertificateAuthority`, two new P-256 keys), Node's
 *               HTTPS server with the reference's TLS and HTTP settings behind the same first-byte
 *               sniffing listener, answering the reference's headers with a body of the same size,
 *               read by a bare undici request with the CA.
 * Prints one JSON line: wall and CPU marks per phase from the start call. `main` is the event-loop
 * thread's own CPU time (Linux's schedstat for this thread; it advances at scheduler ticks, so
 * only medians over several processes mean anything), `cpu` the process's (other threads too).
 *
 * Plain JavaScript so that a BENCH_SERVER=built run loads the build as users do (built-server.ts).
 */
import { readFileSync } from "node:fs";
import { createSecureServer } from "node:http2";
import { createServer } from "node:net";
import { startServer } from "@kubesdk/server";
import { createCertificateAuthority, startTestServer } from "@kubesdk/server/testing";
import { Agent, request } from "undici";

const mode = process.argv[2];
const schedstat = `/proc/self/task/${process.pid}/schedstat`;

/** @returns {number | undefined} ms of CPU this thread has run, where Linux says so */
function mainThreadMs() {
  try {
    return Number(readFileSync(schedstat, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Called once each, so V8's function events (`--log-function-events`, startup-compiles.ts) show
 * where the timed exchange begins and ends: their first executions bound it in the log.
 */
function measureBegins() {}
function measureEnds() {}

/** @type {{ phase: string; wall: number; cpu: number; main: number | undefined }[]} */
const marks = [];
let t0 = 0;
let cpu0 = 0;
let main0 = 0;
/** @param {string} phase */
function mark(phase) {
  const main = mainThreadMs();
  marks.push({
    phase,
    wall: performance.now() - t0,
    cpu: cpuMs() - cpu0,
    main: main === undefined ? undefined : main - main0,
  });
}
function begin() {
  measureBegins();
  main0 = mainThreadMs() ?? 0;
  cpu0 = cpuMs();
  t0 = performance.now();
}

async function reference() {
  begin();
  const cluster = await startTestServer();
  mark("started");
  await cluster.client().resource("v1", "Namespace").get("default");
  mark("answered");
  measureEnds();
  await cluster.stop();
}

// What the reference answers to that GET (a Namespace as a start stores it), in length and headers.
const BODY = JSON.stringify({
  metadata: {
    name: "default",
    uid: "60ddc7bc-ff50-4a5e-ae6c-5abb812fe463",
    creationTimestamp: "2026-12-07T08:51:06Z",
    labels: { "kubernetes.io/metadata.name": "default" },
    managedFields: [
      {
        manager: "unknown",
        operation: "Update",
        apiVersion: "v1",
        time: "2026-12-07T08:51:06Z",
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:labels": { ".": {}, "f:kubernetes.io/metadata.name": {} } },
          "f:spec": { "f:finalizers": {} },
        },
      },
    ],
    resourceVersion: "4",
  },
  apiVersion: "v1",
  kind: "Namespace",
  status: { phase: "Active" },
  spec: { finalizers: ["kubernetes"] },
});

/** The reference's listener (http/transport.ts): plain HTTP is told off, TLS goes on to `https`. */
function sniffing(https) {
  return createServer({ pauseOnConnect: true }, (socket) => {
    socket.on("error", () => socket.destroy());
    socket.once("readable", () => {
      const first = socket.read(1);
      if (first === null) return socket.destroy();
      socket.unshift(first);
      https.emit("connection", socket);
      socket.resume();
    });
    socket.resume();
    socket.pause();
  });
}

async function bare() {
  begin();
  const ca = createCertificateAuthority();
  const serving = ca.issue({
    commonName: "kubesdk-reference-server",
    dnsNames: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"],
    ipAddresses: ["127.0.0.1", "::1"],
    usage: "server",
  });
  mark("certificates");
  const https = createSecureServer(
    {
      maxHeaderSize: 1024 * 1024,
      key: serving.keyPem,
      cert: serving.certPem,
      ca: ca.certPem,
      requestCert: true,
      rejectUnauthorized: false,
      allowHTTP1: true,
      settings: { maxHeaderListSize: 1024 * 1024 },
      maxSessionMemory: 256,
    },
    (_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "no-cache, private",
        "content-length": Buffer.byteLength(BODY),
      });
      res.end(BODY);
    },
  );
  Object.assign(https, { keepAliveTimeout: 60_000, headersTimeout: 65_000, requestTimeout: 0 });
  const listener = sniffing(https);
  await new Promise((resolve) => listener.listen(0, "127.0.0.1", () => resolve(undefined)));
  mark("started");
  const agent = new Agent({ connect: { ca: ca.certPem } });
  const res = await request(`https://127.0.0.1:${listener.address().port}/api/v1/namespaces/default`, {
    dispatcher: agent,
    headers: { accept: "application/json", authorization: "Bearer floor", "user-agent": "startup-floor" },
  });
  await res.body.json();
  mark("answered");
  measureEnds();
  await agent.close();
  listener.close();
  https.close();
}

// Keeps the import identical in both modes: the reference entry points are loaded either way.
void startServer;
if (mode === "reference") await reference();
else if (mode === "bare") await bare();
else throw new Error(`unknown mode ${mode}: reference or bare`);
console.log(JSON.stringify({ mode, marks }));
process.exit(0);
