/**
 * Runs the reference server in its own process for real-vs-reference.ts, so the benchmark client
 * does not share the server's event loop (kube-apiserver gets its own processes too). Reports
 * { url, ca, token, startupMs } over IPC once listening; stops on a "stop" message or when the
 * parent goes away.
 */
import { startServer } from "@kubesdk/server";

if (!process.send) throw new Error("reference-server-child.ts must be started with child_process.fork");

// Timed after the module import: startup is startServer() until it resolves.
const t0 = performance.now();
const server = await startServer({ cluster: false });
const startupMs = performance.now() - t0;

let stopping = false;
const stopAndExit = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on("message", (message) => {
  if (message === "stop") void stopAndExit();
});
// The parent died or closed the channel: nobody is left to stop us.
process.on("disconnect", () => void stopAndExit());

process.send({ url: server.url, ca: server.ca, token: server.token, startupMs });
