/** Waiting for a CRD to be Established and its resource served, by polling reads (no timers as assertions). */
import type { Server } from "./servers.js";

export async function established(s: Server, name: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const got = await s.call("GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    const conditions: { type: string; status: string }[] = got.json?.status?.conditions ?? [];
    if (conditions.some((c) => c.type === "Established" && c.status === "True")) {
      const [plural, ...group] = name.split(".");
      const list = await s.call("GET", `/apis/${group.join(".")}/v1/${plural}`);
      if (list.status === 200) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${s.kind}: ${name} not established`);
}
