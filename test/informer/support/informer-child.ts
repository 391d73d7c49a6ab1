/**
 * Run as a separate process by the S33 test: syncs an informer (with resync timers, a handler and a
 * live watch), stops it, and then must exit on its own — any handle the informer left open (socket,
 * timer) would keep the process alive. It deliberately does not call process.exit().
 *
 * Usage: node --conditions=source --import tsx informer-child.ts <kubeconfig> <namespace> [close-transport]
 */
import { Kube } from "@kubesdk/client";
import { Informer } from "@kubesdk/informer";
import { createTransport, loadClusterConnection } from "@kubesdk/transport";

const [kubeconfig, namespace, closeTransport] = process.argv.slice(2);
if (kubeconfig === undefined || namespace === undefined)
  throw new Error("usage: informer-child.ts <kubeconfig> <namespace>");
const transport = createTransport(await loadClusterConnection({ path: kubeconfig, inCluster: false }));
const configMaps = new Kube(transport).resource("v1", "ConfigMap");
const informer = new Informer(configMaps, { namespace, resyncPeriodMs: 20 });
let resyncs = 0;
informer.addEventHandler({ update: (a, b) => void (a === b && resyncs++) }, { resyncPeriodMs: 10 });
informer.start();
await informer.waitForSync({ timeoutMs: 10_000 });
// The parent writes an object once it reads "synced"; the live event proves the watch is open.
const live = new Promise<void>((resolve) => informer.once("event", () => resolve()));
process.stdout.write("synced\n");
await live;
await informer.stop();
if (closeTransport === "close-transport") await transport.close();
process.stdout.write(`stopped ${informer.reflectorState} resyncs>0=${resyncs > 0}\n`);
