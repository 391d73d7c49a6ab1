/**
 * Runs the client-go program (main.go) against the reference server and a real kube-apiserver,
 * with JSON and protobuf and with WatchListClient on and off. Usage: run.ts <client-go-check binary>
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startServer } from "@kubesdk/server";
import { startRealApiserver } from "../real-apiserver/start.js";

const run = promisify(execFile);

async function checks(binary: string, kubeconfig: string, label: string): Promise<boolean> {
  let ok = true;
  for (const protobuf of [false, true])
    for (const watchList of [false, true]) {
      const name = `${label} ${protobuf ? "protobuf" : "json"} WatchListClient=${watchList}`;
      try {
        const { stdout } = await run(binary, [`-kubeconfig=${kubeconfig}`, `-protobuf=${protobuf}`], {
          env: { ...process.env, KUBE_FEATURE_WatchListClient: String(watchList) },
          timeout: 180_000,
        });
        console.log(`client-go-check: ok   ${name} (${stdout.trim().split("\n").length} checks)`);
      } catch (e) {
        ok = false;
        const out = (e as { stdout?: string }).stdout ?? String(e);
        console.log(`client-go-check: FAIL ${name}\n${out.trim().split("\n").slice(-5).join("\n")}`);
      }
    }
  return ok;
}

async function main(): Promise<void> {
  const binary = process.argv[2];
  if (!binary) throw new Error("usage: run.ts <client-go-check binary>");
  const kubeconfigPath = join(mkdtempSync(join(tmpdir(), "client-go-check-")), "kubeconfig");
  // No in-process controllers or cluster, as the real side runs (kube-apiserver without a controller-manager).
  const ref = await startServer({ kubeconfigPath, cluster: false, controllers: false });
  const refOk = await checks(binary, kubeconfigPath, "reference").finally(() => ref.stop());
  const real = await startRealApiserver();
  const realOk = await checks(binary, real.kubeconfigPath, "real").finally(() => real.stop());
  process.exit(refOk && realOk ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
