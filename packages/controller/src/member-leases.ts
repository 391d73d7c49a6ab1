/**
 * The Lease records of a shard group: one `coordination.k8s.io/v1` Lease per member, named
 * `<group>-<identity>`, labelled with the group, whose annotation publishes the membership view the
 * member acts on.
 *
 * Contract:
 * - `renew(view)` writes this member's Lease (creating it when missing) with a fresh `renewTime`,
 *   `leaseDurationSeconds` and `view`; it resolves only once the server stored exactly that.
 * - `list()` reads every member Lease of the group with a consistent (quorum) list and returns one
 *   record per member, with `observedAt`: the local monotonic time at which this process last saw
 *   that Lease change (its resourceVersion), judged live by lease-observation.ts's rule.
 * - `remove()` deletes this member's Lease if it is still the version this member last wrote.
 */
import type { Kube, ResourceClient } from "@kubesdk/client";
import type { coordinationV1 } from "@kubesdk/models";
import { isAlreadyExists, isConflict, isNotFound } from "@kubesdk/transport";
import type { Clock } from "./clock.js";
import { holderSpec, LeaseObserver, publishedDurationMs } from "./lease-observation.js";

type Lease = coordinationV1.Lease;

/** Label naming the shard group a member Lease belongs to. */
export const SHARD_GROUP_LABEL = "sharding.kubesdk.io/group";
/** Annotation holding the view (JSON array of identities) the member acts on. */
export const SHARD_VIEW_ANNOTATION = "sharding.kubesdk.io/view";

/** A member as last read from its Lease (an `ObservedLease`: live by lease-observation.ts's rule). */
export interface MemberRecord {
  readonly identity: string;
  /** The membership view it published; keys it owns under this view may be in its hands. */
  readonly view: readonly string[];
  /** From its `leaseDurationSeconds`. */
  readonly durationMs: number;
  /** Local monotonic time at which this process last saw the Lease change. */
  readonly observedAt: number;
  readonly name: string;
  readonly resourceVersion: string;
}

export interface MemberLeasesOptions {
  readonly kube: Kube;
  readonly group: string;
  readonly namespace: string;
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly clock: Clock;
}

/** Reads a published view; anything malformed counts as the empty view (claims nothing). */
function parseView(text: string | undefined): readonly string[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : [];
  } catch {
    return [];
  }
}

export class MemberLeases {
  readonly #o: MemberLeasesOptions;
  readonly #leases: ResourceClient<Lease>;
  readonly name: string;
  /** This member's Lease as last written (its resourceVersion is the base of the next write). */
  #mine: Lease | undefined;
  readonly #observer: LeaseObserver;

  constructor(options: MemberLeasesOptions) {
    this.#o = options;
    this.#observer = new LeaseObserver(options.clock);
    this.#leases = options.kube.resource("coordination.k8s.io/v1", "Lease");
    this.name = `${options.group}-${options.identity}`;
  }

  async renew(view: readonly string[], signal: AbortSignal): Promise<void> {
    const { namespace } = this.#o;
    const lease = this.#lease(view);
    if (this.#mine === undefined) {
      try {
        this.#mine = await this.#leases.create(lease, { namespace, signal });
        return;
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        // A previous process with this identity left it; take it over from its current version.
        this.#mine = await this.#leases.get(this.name, { namespace, signal });
      }
    }
    const base = this.#mine;
    const next: Lease = {
      ...lease,
      metadata: { ...lease.metadata, resourceVersion: base.metadata?.resourceVersion ?? "" },
      spec: { ...lease.spec, acquireTime: base.spec?.acquireTime ?? lease.spec?.acquireTime },
    };
    try {
      this.#mine = await this.#leases.replace(next, { namespace, signal });
    } catch (err) {
      // Deleted (by a member collecting expired Leases) or changed by someone else: start over from
      // the server's state on the next round.
      if (isNotFound(err) || isConflict(err)) this.#mine = undefined;
      throw err;
    }
  }

  async list(signal: AbortSignal): Promise<MemberRecord[]> {
    const { namespace, group } = this.#o;
    const list = await this.#leases.list({
      namespace,
      labelSelector: { [SHARD_GROUP_LABEL]: group },
      signal,
    });
    const records: MemberRecord[] = [];
    const present = new Set<string>();
    for (const lease of list.items) {
      const name = lease.metadata?.name ?? "";
      const identity = lease.spec?.holderIdentity ?? "";
      const resourceVersion = lease.metadata?.resourceVersion ?? "";
      if (identity === "") continue;
      present.add(name);
      records.push({
        identity,
        name,
        resourceVersion,
        view: parseView(lease.metadata?.annotations?.[SHARD_VIEW_ANNOTATION]),
        durationMs: publishedDurationMs(lease.spec),
        // The resourceVersion: the view annotation is part of what a member Lease says.
        observedAt: this.#observer.observe(name, resourceVersion).observedAt,
      });
    }
    this.#observer.retain(present);
    return records;
  }

  /** Deletes another member's Lease if unchanged since `record` was read (expired members only). */
  async collect(record: MemberRecord, signal: AbortSignal): Promise<void> {
    try {
      await this.#leases.delete(record.name, {
        namespace: this.#o.namespace,
        preconditions: { resourceVersion: record.resourceVersion },
        signal,
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Deletes this member's Lease (graceful leave); a Lease changed by someone else is left alone. */
  async remove(signal: AbortSignal): Promise<void> {
    const mine = this.#mine;
    this.#mine = undefined;
    if (mine === undefined) return;
    try {
      await this.#leases.delete(this.name, {
        namespace: this.#o.namespace,
        preconditions: { resourceVersion: mine.metadata?.resourceVersion ?? "" },
        signal,
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  #lease(view: readonly string[]): Lease {
    const { group, namespace, identity, leaseDurationMs, clock } = this.#o;
    return {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: {
        name: this.name,
        namespace,
        labels: { [SHARD_GROUP_LABEL]: group },
        annotations: { [SHARD_VIEW_ANNOTATION]: JSON.stringify(view) },
      },
      spec: holderSpec(identity, leaseDurationMs, clock.wallTime()),
    };
  }
}
