/**
 * EventAudit: a handler that rebuilds the world only from the notifications it receives, keeps each
 * object's event history, and at the end checks that history against the server: the picture
 * equals the server's objects (name, uid, resourceVersion), nothing was added twice without a
 * delete between, no update or delete arrived for something unseen, no update crossed from one uid
 * to another, and every object seen that no longer exists got its delete.
 */
import { isDeletedFinalStateUnknown } from "@kubesdk/informer";
import type { KubernetesObject } from "@kubesdk/models";
import type { TestTarget } from "../../support/target.js";

/** One object as a client can tell it apart: its uid and resourceVersion. */
export interface Seen {
  readonly uid: string;
  readonly rv: string;
}

type AuditEvent = `${"add" | "update" | "delete"} ${string}@${string}`;

function seen(obj: KubernetesObject): Seen {
  return { uid: obj.metadata?.uid ?? "", rv: obj.metadata?.resourceVersion ?? "" };
}

function nameOf(obj: KubernetesObject): string {
  return obj.metadata?.name ?? "";
}

export class EventAudit {
  /** name → what the handler believes exists now. */
  readonly view = new Map<string, Seen>();
  /** name → every notification for it, in order (printed with a violation). */
  readonly history = new Map<string, AuditEvent[]>();
  readonly violations: string[] = [];
  readonly #addedUids = new Map<string, string>();
  readonly #deletedUids = new Set<string>();

  #log(name: string, event: AuditEvent): void {
    const events = this.history.get(name);
    if (events === undefined) this.history.set(name, [event]);
    else events.push(event);
  }

  #violate(name: string, what: string): void {
    this.violations.push(`${what} (events for ${name}: ${(this.history.get(name) ?? []).join(", ")})`);
  }

  /** Pass to `informer.addEventHandler`. */
  readonly handlers = {
    add: (obj: KubernetesObject): void => {
      const name = nameOf(obj);
      const now = seen(obj);
      this.#log(name, `add ${now.uid}@${now.rv}`);
      if (this.view.has(name)) this.#violate(name, `${name} added twice without a delete between`);
      this.view.set(name, now);
      this.#addedUids.set(now.uid, name);
    },
    update: (oldObj: KubernetesObject, newObj: KubernetesObject): void => {
      const name = nameOf(newObj);
      const before = seen(oldObj);
      const after = seen(newObj);
      this.#log(name, `update ${after.uid}@${after.rv}`);
      const known = this.view.get(name);
      if (known === undefined) this.#violate(name, `update of unknown ${name}`);
      else if (known.uid !== before.uid || known.rv !== before.rv)
        this.#violate(name, `update of ${name} from an unseen state ${before.uid}@${before.rv}`);
      if (before.uid !== after.uid) this.#violate(name, `update of ${name} across uids: a delete was missed`);
      this.view.set(name, after);
    },
    delete: (objOrTombstone: unknown): void => {
      const obj = (
        isDeletedFinalStateUnknown(objOrTombstone) ? objOrTombstone.obj : objOrTombstone
      ) as KubernetesObject;
      const name = nameOf(obj);
      const gone = seen(obj);
      this.#log(name, `delete ${gone.uid}@${gone.rv}`);
      const known = this.view.get(name);
      if (known === undefined) this.#violate(name, `delete of unknown ${name}`);
      else if (known.uid !== gone.uid)
        this.#violate(name, `delete of ${name} names uid ${gone.uid}, not ${known.uid}`);
      else this.#deletedUids.add(known.uid);
      this.view.delete(name);
    },
  };

  /**
   * The problems found against the server's final state (name → uid and resourceVersion): the
   * handler's picture must equal it, and every uid the handler saw that is gone must have had a delete.
   */
  check(server: ReadonlyMap<string, Seen>): string[] {
    const problems = [...this.violations];
    for (const [name, want] of server) {
      const got = this.view.get(name);
      if (got === undefined) problems.push(`${name} exists on the server but the handlers never kept it`);
      else if (got.uid !== want.uid || got.rv !== want.rv)
        problems.push(`${name}: handlers hold ${got.uid}@${got.rv}, server ${want.uid}@${want.rv}`);
    }
    for (const name of this.view.keys()) {
      if (!server.has(name)) problems.push(`${name} is gone from the server but the handlers keep it`);
    }
    const live = new Set([...server.values()].map((s) => s.uid));
    for (const [uid, name] of this.#addedUids) {
      if (!live.has(uid) && !this.#deletedUids.has(uid))
        problems.push(
          `delete missed for ${name} uid ${uid} (events: ${(this.history.get(name) ?? []).join(", ")})`,
        );
    }
    return problems;
  }
}

/** name → uid and resourceVersion of the ConfigMaps the server holds in a namespace. */
export async function serverObjects(t: TestTarget, ns: string): Promise<Map<string, Seen>> {
  // Read cluster-wide, filtered by namespace: fault rules a schedule left for its namespace (a
  // counted failNext) match namespaced requests only. pretty=false marks the request as the test's
  // own in the request log; the retry covers a server-wide fault from a neighbouring schedule.
  const path = `/api/v1/configmaps?pretty=false&fieldSelector=${encodeURIComponent(`metadata.namespace=${ns}`)}`;
  let last = "";
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const res = await t.call("GET", path);
      if (res.status === 200)
        return new Map((res.json.items as KubernetesObject[]).map((o) => [nameOf(o), seen(o)] as const));
      last = `${res.status} ${res.text}`;
    } catch (err) {
      last = String(err);
    }
  }
  throw new Error(`GET configmaps in ${ns}: ${last}`);
}
