/** Container logs (`pods/log`) as raw chunks or as lines, optionally followed. */
import { type HttpTransport, RequestAbortedError } from "@kubesdk/transport";
import { ClientError } from "../errors.js";
import { invalidOption } from "./errors.js";

export interface LogOptions {
  readonly namespace?: string;
  /** Which container (required when the pod has more than one). */
  readonly container?: string;
  /** Keep the stream open for new output until the container stops or `signal` aborts. */
  readonly follow?: boolean;
  /** Only output newer than this many seconds. */
  readonly sinceSeconds?: number;
  /** Only output after this time (RFC 3339 or a Date). Exclusive with `sinceSeconds`. */
  readonly sinceTime?: string | Date;
  /** Only the last N lines. */
  readonly tailLines?: number;
  /** Prefix every line with its RFC 3339 timestamp. */
  readonly timestamps?: boolean;
  /** The previous (terminated) instance of the container. */
  readonly previous?: boolean;
  /** Stop after this many bytes. */
  readonly limitBytes?: number;
  /** Ends the stream; a followed stream then finishes without an error. */
  readonly signal?: AbortSignal;
}

export function podPath(namespace: string, name: string, subresource: string): string {
  const seg = (value: string, what: string) => {
    if (typeof value !== "string" || value === "" || value === "." || value === "..")
      throw new ClientError(
        "INVALID_PATH_SEGMENT",
        `${what} ${JSON.stringify(value)} cannot be used in a URL path`,
      );
    return encodeURIComponent(value);
  };
  return `/api/v1/namespaces/${seg(namespace, "namespace")}/pods/${seg(name, "pod name")}/${subresource}`;
}

function count(name: string, value: number | undefined, min: number): number | undefined {
  if (value !== undefined && (!Number.isInteger(value) || value < min))
    throw invalidOption(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
  return value;
}

function logQuery(options: LogOptions) {
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined)
    throw invalidOption("sinceSeconds and sinceTime exclude each other");
  const sinceTime = options.sinceTime instanceof Date ? options.sinceTime.toISOString() : options.sinceTime;
  return {
    container: options.container,
    follow: options.follow === true ? "true" : undefined,
    sinceSeconds: count("sinceSeconds", options.sinceSeconds, 1),
    sinceTime,
    tailLines: count("tailLines", options.tailLines, 0),
    timestamps: options.timestamps === true ? "true" : undefined,
    previous: options.previous === true ? "true" : undefined,
    limitBytes: count("limitBytes", options.limitBytes, 1),
  };
}

/** The raw bytes of a container's log; aborting `signal` ends the iteration without an error. */
export async function* logChunks(
  transport: HttpTransport,
  namespace: string,
  name: string,
  options: LogOptions = {},
): AsyncGenerator<Uint8Array> {
  const request = {
    method: "GET" as const,
    path: podPath(namespace, name, "log"),
    query: logQuery(options),
    accept: "*/*",
  };
  const signal = options.signal;
  let response: Awaited<ReturnType<HttpTransport["stream"]>>;
  try {
    response = await transport.stream(request, {
      ...(signal !== undefined ? { signal } : {}),
      ...(options.follow === true ? { idleTimeoutMs: 0 } : {}),
    });
  } catch (err) {
    if (signal?.aborted && err instanceof RequestAbortedError) return;
    throw err;
  }
  try {
    for await (const chunk of response.body) yield chunk;
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  } finally {
    response.close();
  }
}

/** The log as lines without their line breaks (a last line without a break is yielded too). */
export async function* logLines(
  transport: HttpTransport,
  namespace: string,
  name: string,
  options: LogOptions = {},
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  for await (const chunk of logChunks(transport, namespace, name, options)) {
    pending += decoder.decode(chunk, { stream: true });
    let index = pending.indexOf("\n");
    while (index >= 0) {
      yield pending.slice(0, index).replace(/\r$/, "");
      pending = pending.slice(index + 1);
      index = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending !== "") yield pending;
}
