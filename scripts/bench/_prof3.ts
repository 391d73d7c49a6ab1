import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
const { startTestServer } = await import("@kubesdk/server/testing");
async function once() {
  const a = performance.now();
  const s = await startTestServer();
  const b = performance.now();
  await s.client().resource("v1", "Namespace").list();
  const d = performance.now();
  await s.stop();
  return `start ${(b-a).toFixed(1)} firstreq ${(d-b).toFixed(1)}`;
}
for (let i = 0; i < 8; i++) console.log(await once());
const s0 = new Session(); s0.connect();
await s0.post("Profiler.enable"); await s0.post("Profiler.setSamplingInterval", { interval: 100 });
await s0.post("Profiler.start");
const out = [];
for (let i = 0; i < 10; i++) out.push(await once());
const { profile } = await s0.post("Profiler.stop");
console.log(out.join("\n"));
writeFileSync("/tmp/st/warm.cpuprofile", JSON.stringify(profile));
