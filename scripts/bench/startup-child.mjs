/**
 * One fresh process of startup-bench.ts: times the import of the entry point, then `STARTS`
 * in-process starts, each from the start call to its first answered request, and sends the
 * figures to the parent over IPC. `argv[2]` picks what is started:
 *   server  — startServer(), then `GET /readyz` over TLS with the server's CA (undici);
 *   testing — startTestServer(), then a list of namespaces with `cluster.client()`.
 * The first start pays lazy loading and JIT warm-up; later ones are what each further test pays.
 * The report's shape is `ChildReport` in startup-bench.ts.
 *
 * Plain JavaScript so that a BENCH_SERVER=built run loads the build as users do, without a
 * TypeScript loader (see built-server.ts).
 */
import { Agent, request } from "undici";

if (!process.send) throw new Error("startup-child.mjs must be started with child_process.fork");
const send = process.send.bind(process);
const mode = process.argv[2];
const starts = Number(process.argv[3] ?? 10);

/** @param {string} url @param {string | undefined} ca */
async function readyz(url, ca) {
  const agent = new Agent({ connect: ca ? { ca } : {} });
  try {
    const res = await request(`${url}/readyz`, { dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/readyz answered ${res.statusCode}`);
  } finally {
    await agent.close();
  }
}

/** @typedef {() => Promise<{ started: number; answered: number; cpu: number }>} StartOnce */

/** @param {NodeJS.CpuUsage} since */
function cpuMs(since) {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** @returns {Promise<StartOnce>} */
async function serverStarter() {
  const { startServer } = await import("@kubesdk/server");
  return async () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const server = await startServer();
    const started = performance.now() - t0;
    await readyz(server.url, server.ca);
    const answered = performance.now() - t0;
    const cpu = cpuMs(cpu0);
    await server.stop();
    return { started, answered, cpu };
  };
}

/** @returns {Promise<StartOnce>} */
async function testServerStarter() {
  const { startTestServer } = await import("@kubesdk/server/testing");
  return async () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const cluster = await startTestServer();
    const started = performance.now() - t0;
    await cluster.client().resource("v1", "Namespace").list();
    const answered = performance.now() - t0;
    const cpu = cpuMs(cpu0);
    await cluster.stop();
    return { started, answered, cpu };
  };
}

const t0 = performance.now();
const startOnce = mode === "testing" ? await testServerStarter() : await serverStarter();
const importMs = performance.now() - t0;
const startMs = [];
const firstRequestMs = [];
const firstRequestCpuMs = [];
for (let i = 0; i < starts; i++) {
  const { started, answered, cpu } = await startOnce();
  firstRequestCpuMs.push(cpu);
  startMs.push(started);
  firstRequestMs.push(answered);
}
send({ importMs, startMs, firstRequestMs, firstRequestCpuMs }, () => process.exit(0));
