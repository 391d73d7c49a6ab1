/**
 * Scenario 22/23, our choice on identity: an object deleted and re-created under the same name while
 * the informer was not watching has a new uid. The relist reports it as a delete (a tombstone with
 * the old object) followed by an add of the new one — never as an update from one object to
 * another, which would hide the delete from handlers. Deletes of a relist come before its adds.
 * Reason for reference-only: the gap is made by pausing delivery and compacting history.
 */
import { describe, expect, it } from "vitest";
import { targetKind } from "../support/target.js";
import { EventAudit, serverObjects } from "./support/event-audit.js";
import { until } from "./support/harness.js";
import { deleteConfigMapInStore, seedConfigMaps, updateConfigMapInStore } from "./support/reference.js";
import { useInformerSuite } from "./support/suite.js";

describe.runIf(targetKind === "reference")("relist and object identity", () => {
  const s = useInformerSuite();

  it("S22/S23: a name deleted and re-created during a gap is a tombstone delete then an add; a same-uid change stays one update", async () => {
    const ns = await s.namespace("s23-uid");
    seedConfigMaps(s.server, ns, ["reborn", "changed", "same"]);
    const informer = s.informer({ namespace: ns });
    const audit = new EventAudit();
    // Counts what the audit handled after the initial list; resolves at the relist's three.
    let after = 0;
    let relistHandled = () => {};
    const threeHandled = new Promise<void>((resolve) => {
      relistHandled = resolve;
    });
    const counted = () => {
      if (++after === 3) relistHandled();
    };
    informer.addEventHandler({
      add: (obj, info) => {
        audit.handlers.add(obj);
        if (!info.isInInitialList) counted();
      },
      update: (a, b) => {
        audit.handlers.update(a, b);
        counted();
      },
      delete: (o) => {
        audit.handlers.delete(o);
        counted();
      },
    });
    await s.synced(informer);
    const before = new Map(audit.view);

    const replaced = until(informer, "replace", (r) => !r.initial);
    s.server.faults.pauseDelivery();
    deleteConfigMapInStore(s.server, ns, "reborn");
    seedConfigMaps(s.server, ns, ["reborn"]);
    updateConfigMapInStore(s.server, ns, "changed", { v: "1" });
    s.server.faults.restart();
    s.server.faults.resumeDelivery();
    const [info] = await replaced;
    expect(info).toMatchObject({ added: 1, updated: 1, deleted: 1, unchanged: 1 });

    const server = await serverObjects(s.t, ns);
    const reborn = server.get("reborn");
    expect(reborn?.uid).not.toBe(before.get("reborn")?.uid);
    await threeHandled;
    const old = before.get("reborn");
    expect(audit.history.get("reborn")).toEqual([
      `add ${old?.uid}@${old?.rv}`,
      `delete ${old?.uid}@${old?.rv}`,
      `add ${reborn?.uid}@${reborn?.rv}`,
    ]);
    expect(audit.history.get("changed")).toHaveLength(2);
    expect(audit.history.get("changed")?.[1]).toMatch(/^update /);
    expect(audit.history.get("same")).toHaveLength(1);
    expect(audit.check(server)).toEqual([]);
  });
});
