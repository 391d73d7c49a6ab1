// Starts a real kube-apiserver + etcd and keeps them running until Ctrl-C.
// Usage: tsx scripts/real-apiserver/cli.ts [--no-watch-cache] [--keep-run-dir] [-- --extra-apiserver-flag=…]
import { parseArgs } from "node:util";
import { RealApiserverError, startRealApiserver } from "./start.js";

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      "no-watch-cache": { type: "boolean", default: false },
      "keep-run-dir": { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  const server = await startRealApiserver({
    watchCache: !values["no-watch-cache"],
    keepRunDir: values["keep-run-dir"],
    extraApiserverFlags: positionals,
  });
  console.log(`kube-apiserver ready in ${server.timings.apiserverReadyMs} ms`);
  console.log(`  url:        ${server.url}`);
  console.log(`  kubeconfig: ${server.kubeconfigPath}`);
  console.log(`  token:      ${server.token}`);
  console.log(`  etcd:       ${server.etcdEndpoint}`);
  console.log(`  logs:       ${server.runDir}/{etcd,kube-apiserver}.log`);
  console.log(`export KUBECONFIG=${server.kubeconfigPath}`);
  console.log("Ctrl-C stops both processes and removes the run directory.");
  // The child processes keep the event loop alive; the signal handlers that
  // startRealApiserver installs stop them and exit.
}

main().catch((error: unknown) => {
  const code = error instanceof RealApiserverError ? ` [${error.code}]` : "";
  console.error(`real-apiserver${code}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
