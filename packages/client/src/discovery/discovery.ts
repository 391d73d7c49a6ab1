import {
  apiVersionOf,
  type GroupVersions,
  ModelsError,
  parseApiVersion,
  type ResolveOptions,
  type ResourceInfo,
  ResourceRegistry,
} from "@kubesdk/models";
import { type HttpTransport, isNotFound } from "@kubesdk/transport";
import { ClientError } from "../errors.js";
import type { RequestControl } from "../io/context.js";
import { groupsOf, resourcesOfList } from "./resource-list.js";

/**
 * API discovery (`/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>`) with a cache. Each document is fetched
 * once and kept; a lookup that misses refetches what it looked at once before giving up, so a kind
 * added after the cache was filled (a new CRD) is found without clearing the cache by hand.
 */
export class Discovery {
  readonly #transport: HttpTransport;
  #groups: Promise<GroupVersions[]> | undefined;
  readonly #resources = new Map<string, Promise<ResourceInfo[]>>();
  #fetches = 0;

  constructor(transport: HttpTransport) {
    this.#transport = transport;
  }

  /** Discovery documents fetched so far (cache misses), for observing the cache. */
  get fetchCount(): number {
    return this.#fetches;
  }

  /** Served groups with their versions, preferred first; the core group is "". */
  groups(control: RequestControl = {}): Promise<readonly GroupVersions[]> {
    if (this.#groups === undefined) {
      const fetching = Promise.all([this.#get("/api", control), this.#get("/apis", control)]).then(
        ([core, groups]) => groupsOf(core, groups),
      );
      this.#groups = fetching;
      // A failed fetch is not cached: the next call tries again.
      fetching.catch(() => {
        if (this.#groups === fetching) this.#groups = undefined;
      });
    }
    return this.#groups;
  }

  /** Resources of one group version (`v1`, `apps/v1`); empty when the server does not serve it. */
  resources(apiVersion: string, control: RequestControl = {}): Promise<readonly ResourceInfo[]> {
    let cached = this.#resources.get(apiVersion);
    if (cached === undefined) {
      const { group, version } = parseApiVersion(apiVersion);
      const path =
        group === ""
          ? `/api/${encodeURIComponent(version)}`
          : `/apis/${encodeURIComponent(group)}/${encodeURIComponent(version)}`;
      const fetching = this.#get(path, control).then(
        (body) => resourcesOfList(body, group, version),
        (err: unknown) => {
          if (isNotFound(err)) return [];
          throw err;
        },
      );
      this.#resources.set(apiVersion, fetching);
      fetching.catch(() => {
        if (this.#resources.get(apiVersion) === fetching) this.#resources.delete(apiVersion);
      });
      cached = fetching;
    }
    return cached;
  }

  /** The resource serving `kind` in `apiVersion`; refetches that group version once on a miss. */
  async find(apiVersion: string, kind: string, control: RequestControl = {}): Promise<ResourceInfo> {
    const pick = (list: readonly ResourceInfo[]) => list.find((r) => r.kind === kind);
    const hit = pick(await this.resources(apiVersion, control));
    if (hit !== undefined) return hit;
    this.#resources.delete(apiVersion);
    const fresh = pick(await this.resources(apiVersion, control));
    if (fresh !== undefined) return fresh;
    throw new ClientError(
      "UNKNOWN_RESOURCE",
      `the server serves no kind ${JSON.stringify(kind)} in ${apiVersion}`,
    );
  }

  /**
   * kubectl-style resolution of a name (plural, singular, short name or kind, optionally qualified:
   * "deployments.apps", "crontabs.v1.stable.example.com") over everything the server serves;
   * refetches all of discovery once on a miss.
   */
  async resolve(name: string, options: ResolveOptions & RequestControl = {}): Promise<ResourceInfo> {
    try {
      return (await this.registry(options)).resolve(name, options);
    } catch (err) {
      if (!isUnknownResource(err)) throw err;
    }
    this.invalidate();
    try {
      return (await this.registry(options)).resolve(name, options);
    } catch (err) {
      if (isUnknownResource(err)) throw new ClientError("UNKNOWN_RESOURCE", err.message, { cause: err });
      throw err;
    }
  }

  /** Everything the server serves, as a registry (discovery order, preferred versions first). */
  async registry(control: RequestControl = {}): Promise<ResourceRegistry> {
    const groups = await this.groups(control);
    const versions = groups.flatMap((g) =>
      g.versions.map((version) => apiVersionOf({ group: g.group, version })),
    );
    const lists = await Promise.all(versions.map((apiVersion) => this.resources(apiVersion, control)));
    return new ResourceRegistry(lists.flat(), groups);
  }

  /** Forgets every cached document. */
  invalidate(): void {
    this.#groups = undefined;
    this.#resources.clear();
  }

  async #get(path: string, control: RequestControl): Promise<unknown> {
    this.#fetches++;
    const response = await this.#transport.requestJson(
      { method: "GET", path },
      { ...(control.signal !== undefined ? { signal: control.signal } : {}) },
    );
    return response.body;
  }
}

function isUnknownResource(err: unknown): err is ModelsError {
  return err instanceof ModelsError && err.code === "UNKNOWN_RESOURCE";
}
