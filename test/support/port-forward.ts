/** `kubectl port-forward` run as a child process, and a TCP round trip through the port it opens. */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";

/** Starts `kubectl port-forward` and resolves with the local port it reports. */
export function portForward(
  kubeconfig: string,
  ns: string,
  pod: string,
  port: number,
  env: Record<string, string>,
) {
  const child = spawn("kubectl", ["--kubeconfig", kubeconfig, "-n", ns, "port-forward", pod, `:${port}`], {
    env: { ...process.env, ...env },
  });
  const local = new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.once("exit", (code) => reject(new Error(`kubectl port-forward exited ${code}: ${err}`)));
  });
  return { child, local };
}

export function roundTrip(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    socket.on("data", (c: Buffer) => {
      got += c.toString();
      if (got.length >= payload.length) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on("error", reject);
    socket.write(payload);
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
