/**
 * A span per list of an informer (the initial list and every relist, paged or streaming) when
 * `@opentelemetry/api` is installed: from the reflector's listStart to its listDone, or to the
 * failure that ends the list. Fed the reflector's events, which are few (not one per object).
 */
import { type ActiveSpan, startSpan } from "@kubesdk/transport/internal";
import type { ReflectorEvents } from "./events.js";

export class ListSpans {
  readonly #resource: string;
  #span: ActiveSpan | undefined;

  /** `resource` names what is listed in the span, e.g. "v1/ConfigMap". */
  constructor(resource: string) {
    this.#resource = resource;
  }

  observe<K extends keyof ReflectorEvents>(name: K, args: ReflectorEvents[K]): void {
    if (name === "listStart") {
      const [info] = args as ReflectorEvents["listStart"];
      this.#span?.end();
      this.#span = startSpan(
        "informer.list",
        {
          "kubesdk.resource": this.#resource,
          "kubesdk.list.reason": info.reason,
          "kubesdk.list.streaming": info.streaming,
        },
        "internal",
      );
    } else if (name === "listDone") {
      const [info] = args as ReflectorEvents["listDone"];
      this.#span?.set("kubesdk.list.items", info.items);
      this.#span?.set("kubesdk.list.pages", info.pages);
      this.end();
    } else if (name === "error") {
      const [error, context] = args as ReflectorEvents["error"];
      if (context.during === "list") this.end(error);
    }
  }

  /** Ends the list in progress (when the informer stops, or with the error that ended the list). */
  end(error?: unknown): void {
    this.#span?.end(error);
    this.#span = undefined;
  }
}
