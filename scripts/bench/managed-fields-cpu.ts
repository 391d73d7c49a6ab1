/**
 * CPU per call of the server's managedFields work alone, in-process, on the built server (dist/):
 * a server-side apply of the server-cpu.ts bench's ConfigMap to an object its creator wrote (and
 * to one an updater changed since), and an update's managedFields bookkeeping (withManagedFields),
 * by another manager and by the object's creator.
 * The server bench cannot resolve a few µs in a write of several hundred; this can. Each figure is
 * process CPU time (user + system) over the calls, so waiting for a core on a loaded machine does
 * not count, but the collector's threads do.
 *
 * Run: pnpm build, then node --import tsx scripts/bench/managed-fields-cpu.ts
 * Env: BENCH_CALLS (20000 per round), BENCH_ROUNDS (5, the first one a warm-up),
 *      BENCH_SERVER_DIST (packages/server/dist: another build of the server to compare against).
 */
import { fileURLToPath } from "node:url";

const calls = Number(process.env.BENCH_CALLS ?? 20_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const dist =
  process.env.BENCH_SERVER_DIST ?? fileURLToPath(new URL("../../packages/server/dist", import.meta.url));

type Obj = Record<string, unknown>;
// The build's internals, which the package does not export: loaded by path, typed by hand.
const { serverSideApply } = (await import(`${dist}/apply/server-side-apply.js`)) as {
  serverSideApply(input: Obj): Obj;
};
const { withManagedFields } = (await import(`${dist}/endpoints/handlers/managed.js`)) as {
  withManagedFields(ctx: Obj, r: Obj, old: Obj | undefined, next: Obj, mc: Obj): Obj;
};
const { stamp } = (await import(`${dist}/storage/stamp.js`)) as { stamp(obj: Obj, rev: number): Obj };
const { schemaFor } = await import("@kubesdk/models");

const configMaps = { group: "", version: "v1", kind: "ConfigMap", subresources: new Set() };
const schema = schemaFor({ group: "", version: "v1", kind: "ConfigMap" });
const ctx = { now: () => new Date() };
const manager = (name: string) => ({ query: new URLSearchParams({ fieldManager: name }) });
const configMap = (i: number, data: Obj) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: `cm-${i}`, namespace: "bench", labels: { app: "bench", shard: String(i % 10) } },
  data,
});
// Stored as the store keeps them: stamped, so their managedFields' trees are the shared frozen ones.
const stored = (o: Obj) => stamp({ ...o, metadata: { ...(o.metadata as Obj), uid: "u" } }, 1);

const created: Obj[] = [];
const updated: Obj[] = [];
for (let i = 0; i < 100; i++) {
  const c = stored(
    withManagedFields(ctx, configMaps, undefined, configMap(i, { key: `value-${i}` }), manager("c")),
  );
  created.push(c);
  updated.push(
    stored(withManagedFields(ctx, configMaps, c, { ...c, data: { key: `u-${i}` } }, manager("u"))),
  );
}

const apply = (live: Obj, i: number) =>
  serverSideApply({
    live,
    applied: configMap(i, { applied: `a-${i}` }),
    manager: "bench",
    force: true,
    apiVersion: "v1",
    subresource: undefined,
    scope: "all",
    schema,
    time: "2026-12-07T00:00:00Z",
  });

const cases: Record<string, (i: number) => unknown> = {
  "apply to a created object": (i) => apply(created[i % 100] as Obj, i % 100),
  "apply to an updated object": (i) => apply(updated[i % 100] as Obj, i % 100),
  "an update's bookkeeping": (i) => {
    const c = created[i % 100] as Obj;
    return withManagedFields(ctx, configMaps, c, { ...c, data: { key: `u-${i}` } }, manager("u"));
  },
  "an update by its creator": (i) => {
    const c = created[i % 100] as Obj;
    return withManagedFields(ctx, configMaps, c, { ...c, data: { key: `u-${i}` } }, manager("c"));
  },
  // With the store's stamp, which shares the entries' trees (storage/shared-fields.ts).
  "... and stamped": (i) => {
    const c = created[i % 100] as Obj;
    return stamp(withManagedFields(ctx, configMaps, c, { ...c, data: { key: `u-${i}` } }, manager("c")), 2);
  },
};

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
console.log(`µs of CPU per call, ${rounds - 1} rounds of ${calls} (median [min–max])`);
for (const [name, run] of Object.entries(cases)) {
  const perCall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = cpu();
    for (let i = 0; i < calls; i++) run(i);
    if (round > 0) perCall.push((cpu() - start) / calls);
  }
  perCall.sort((a, b) => a - b);
  const median = perCall[Math.floor(perCall.length / 2)] as number;
  const f = (v: number) => v.toFixed(1);
  console.log(
    `${name.padEnd(28)} ${f(median).padStart(6)}  [${f(perCall[0] as number)}–${f(perCall.at(-1) as number)}]`,
  );
}
