/**
 * One fresh process of startup-bench.ts: times the import of the entry point, then `STARTS`
 * in-process starts, each from the start call to its first answered request, and sends the
 * figures to the parent over IPC. `argv[2]` picks what is started:
 *   server  — startServer(), then `GET /readyz` over TLS with the server's CA (undici);
 *   testing — startTestServer(), then a list of namespaces with `cluster.client()`.
 * The first start pays lazy loading and JIT warm-up; later ones are what each further test pays.
 */
import { Agent, request } from "undici";

export interface ChildReport {
  readonly importMs: number;
  /** Start call until it resolves, per start (index 0 is the first start of the process). */
  readonly startMs: readonly number[];
  /** Start call until the first request has been answered, per start. */
  readonly firstRequestMs: readonly number[];
  /**
   * CPU time (user + system) the process spent over the same span, per start: steadier than wall
   * time on a loaded machine, where the wall clock also counts waiting for a core.
   */
  readonly firstRequestCpuMs: readonly number[];
}

if (!process.send) throw new Error("startup-child.ts must be started with child_process.fork");
const send = process.send.bind(process);
const mode = process.argv[2];
const starts = Number(process.argv[3] ?? 10);

async function readyz(url: string, ca: string | undefined): Promise<void> {
  const agent = new Agent({ connect: ca ? { ca } : {} });
  try {
    const res = await request(`${url}/readyz`, { dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/readyz answered ${res.statusCode}`);
  } finally {
    await agent.close();
  }
}

type StartOnce = () => Promise<{ started: number; answered: number; cpu: number }>;

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function serverStarter(): Promise<StartOnce> {
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

async function testServerStarter(): Promise<StartOnce> {
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
const startMs: number[] = [];
const firstRequestMs: number[] = [];
const firstRequestCpuMs: number[] = [];
for (let i = 0; i < starts; i++) {
  const { started, answered, cpu } = await startOnce();
  firstRequestCpuMs.push(cpu);
  startMs.push(started);
  firstRequestMs.push(answered);
}
const report: ChildReport = { importMs, startMs, firstRequestMs, firstRequestCpuMs };
send(report, () => process.exit(0));
