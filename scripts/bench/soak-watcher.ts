/**
 * A minimal list-then-watch client for the soak: keeps name → resourceVersion of the ConfigMaps in
 * one namespace, re-watches from its last resourceVersion when a stream ends or breaks (a torn or
 * malformed event included), relists after 410 Gone, and retries failed requests.
 */
import type { Agent } from "undici";

export interface SoakClient {
  readonly url: string;
  readonly token: string;
  readonly agent: Agent;
}

interface WatchEvent {
  type: string;
  object: { metadata?: { name?: string; resourceVersion?: string }; code?: number };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Watcher {
  readonly view = new Map<string, string>();
  events = 0;
  relists = 0;
  rewatches = 0;
  private rv = "";
  private running = true;
  private current: AbortController | undefined;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: SoakClient,
    private readonly namespace: string,
  ) {}

  async start(): Promise<void> {
    while (!(await this.relist())) await pause(100);
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.current?.abort();
    await this.loop;
  }

  /** Waits until the view equals `want` (or `ms` passed); returns the view. */
  async converge(want: Map<string, string>, ms: number): Promise<Map<string, string>> {
    const end = Date.now() + ms;
    while (Date.now() < end && !sameView(this.view, want)) await pause(100);
    return this.view;
  }

  private headers() {
    return { authorization: `Bearer ${this.client.token}`, accept: "application/json" };
  }

  private async relist(): Promise<boolean> {
    const res = await this.client.agent
      .request({
        origin: this.client.url,
        path: `/api/v1/namespaces/${this.namespace}/configmaps`,
        method: "GET",
        headers: this.headers(),
      })
      .catch(() => undefined);
    if (!res) return false;
    const text = await res.body.text().catch(() => "");
    if (res.statusCode !== 200) return false;
    const list = JSON.parse(text) as { metadata: { resourceVersion: string }; items: WatchEvent["object"][] };
    this.view.clear();
    for (const o of list.items) this.view.set(String(o.metadata?.name), String(o.metadata?.resourceVersion));
    this.rv = list.metadata.resourceVersion;
    this.relists++;
    return true;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const gone = await this.watchOnce().catch(() => false);
      if (!this.running) return;
      this.rewatches++;
      if (gone) while (this.running && !(await this.relist())) await pause(100);
      else await pause(20);
    }
  }

  /** One watch stream; true when the server answered 410 Gone (relist needed). */
  private async watchOnce(): Promise<boolean> {
    this.current = new AbortController();
    const path = `/api/v1/namespaces/${this.namespace}/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=${this.rv}&timeoutSeconds=30`;
    const res = await this.client.agent.request({
      origin: this.client.url,
      path,
      method: "GET",
      headers: this.headers(),
      signal: this.current.signal,
    });
    if (res.statusCode === 410) return true;
    if (res.statusCode !== 200) {
      await res.body.text().catch(() => "");
      return false;
    }
    let buffered = "";
    for await (const chunk of res.body) {
      buffered += chunk.toString();
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (this.apply(JSON.parse(line) as WatchEvent)) {
          res.body.destroy();
          return true;
        }
        nl = buffered.indexOf("\n");
      }
    }
    return false;
  }

  /** Applies one event; true when it is a 410 ERROR. */
  private apply(e: WatchEvent): boolean {
    if (e.type === "ERROR") return e.object.code === 410;
    const name = String(e.object.metadata?.name);
    const rv = String(e.object.metadata?.resourceVersion);
    this.rv = rv;
    if (e.type === "BOOKMARK") return false;
    this.events++;
    if (e.type === "DELETED") this.view.delete(name);
    else this.view.set(name, rv);
    return false;
  }
}

function sameView(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}
