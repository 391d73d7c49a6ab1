/** Running counters behind `Informer.stats()`, fed from the informer's own events. */
import type { InformerEvents, WatchEventKind } from "./events.js";
import type { WatchEndReason } from "./reactions.js";

export interface InformerStatsSnapshot {
  /** Lists started (streaming lists included), pages received, relists among them. */
  readonly lists: number;
  readonly listPages: number;
  readonly relists: number;
  readonly watches: number;
  readonly watchEnds: Readonly<Partial<Record<WatchEndReason, number>>>;
  readonly events: Readonly<Record<WatchEventKind, number>>;
  readonly backoffs: number;
  readonly backoffMs: number;
  readonly errors: number;
  readonly handlerOverflows: number;
  readonly resyncs: number;
  readonly storeSize: number;
  readonly lastSyncResourceVersion: string;
}

export class InformerStats {
  lists = 0;
  listPages = 0;
  relists = 0;
  watches = 0;
  readonly watchEnds: Partial<Record<WatchEndReason, number>> = {};
  readonly events: Record<WatchEventKind, number> = { ADDED: 0, MODIFIED: 0, DELETED: 0, BOOKMARK: 0 };
  backoffs = 0;
  backoffMs = 0;
  errors = 0;
  handlerOverflows = 0;
  resyncs = 0;

  count<K extends keyof InformerEvents>(name: K, args: InformerEvents[K]): void {
    const a = args as unknown[];
    switch (name) {
      case "listStart":
        this.lists++;
        break;
      case "listPage":
        this.listPages++;
        break;
      case "relist":
        this.relists++;
        break;
      case "watchStart":
        this.watches++;
        break;
      case "watchEnd": {
        const reason = (a[0] as InformerEvents["watchEnd"][0]).reason;
        this.watchEnds[reason] = (this.watchEnds[reason] ?? 0) + 1;
        break;
      }
      case "event":
        this.events[(a[0] as InformerEvents["event"][0]).type]++;
        break;
      case "backoff":
        this.backoffs++;
        this.backoffMs += (a[0] as InformerEvents["backoff"][0]).delayMs;
        break;
      case "error":
        this.errors++;
        break;
      case "handlerOverflow":
        this.handlerOverflows++;
        break;
    }
  }

  snapshot(storeSize: number, lastSyncResourceVersion: string): InformerStatsSnapshot {
    return {
      lists: this.lists,
      listPages: this.listPages,
      relists: this.relists,
      watches: this.watches,
      watchEnds: { ...this.watchEnds },
      events: { ...this.events },
      backoffs: this.backoffs,
      backoffMs: this.backoffMs,
      errors: this.errors,
      handlerOverflows: this.handlerOverflows,
      resyncs: this.resyncs,
      storeSize,
      lastSyncResourceVersion,
    };
  }
}
