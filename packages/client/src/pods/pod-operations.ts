/**
 * Pod I/O as `kube.pods`: logs, exec, attach, port-forward, copy, eviction and the proxy
 * subresource. Every call takes the pod's name and an optional `namespace` (default: the client's).
 */
import { PassThrough, type Writable } from "node:stream";
import type { HttpTransport, QueryValue } from "@kubesdk/transport";
import { CHANNEL_PROTOCOLS, type ExecResult, ExecSession } from "./channel-session.js";
import { packTree, unpackTree } from "./copy.js";
import { invalidOption, PodIoError } from "./errors.js";
import { type LogOptions, logChunks, logLines, podPath } from "./logs.js";
import {
  PORT_FORWARD_PROTOCOLS,
  PortForward,
  type PortForwardOptions,
  type PortMapping,
} from "./port-forward.js";
import { openSocket } from "./websocket.js";

export interface StreamOptions {
  readonly namespace?: string;
  readonly container?: string;
  /** Cancels the whole session (handshake and command). */
  readonly signal?: AbortSignal;
  /** Ends the session with STREAM_TIMEOUT when the command has not finished by then. */
  readonly timeoutMs?: number;
  /** Subprotocols to offer, most preferred first (default v5 then v4 of `channel.k8s.io`). */
  readonly protocols?: readonly string[];
}

export interface ExecOptions extends StreamOptions {
  /** Open stdin (`session.stdin`). */
  readonly stdin?: boolean;
  /** Default true. */
  readonly stdout?: boolean;
  /** Default true (merged into stdout when `tty`). */
  readonly stderr?: boolean;
  readonly tty?: boolean;
}

export interface RunOptions extends Omit<ExecOptions, "stdin" | "tty"> {
  /** Sent as the command's stdin, then stdin is closed. */
  readonly input?: string | Uint8Array;
}

export interface RunResult extends ExecResult {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface CopyOptions {
  readonly namespace?: string;
  readonly container?: string;
  readonly signal?: AbortSignal;
}

export interface EvictOptions {
  readonly namespace?: string;
  readonly dryRun?: boolean;
  readonly gracePeriodSeconds?: number;
}

export interface ProxyOptions {
  readonly namespace?: string;
  /** Port (name or number) on the pod (`name:port`). */
  readonly port?: number | string;
  readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
}

export class PodOperations {
  readonly #transport: HttpTransport;
  readonly #namespace: string;

  /** @internal Reached as `kube.pods`. */
  constructor(transport: HttpTransport, defaultNamespace: string) {
    this.#transport = transport;
    this.#namespace = defaultNamespace;
  }

  /** The whole log as text (use `logLines` with `follow` to stream). */
  async log(name: string, options: Omit<LogOptions, "follow"> = {}): Promise<string> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.logBytes(name, options)) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }

  /** Log lines as they arrive; with `follow`, until the container stops or `signal` aborts. */
  logLines(name: string, options: LogOptions = {}): AsyncGenerator<string> {
    return logLines(this.#transport, options.namespace ?? this.#namespace, name, options);
  }

  /** Raw log bytes as they arrive. */
  logBytes(name: string, options: LogOptions = {}): AsyncGenerator<Uint8Array> {
    return logChunks(this.#transport, options.namespace ?? this.#namespace, name, options);
  }

  /** Starts `command`; resolves once the stream is open (await `session.done` for the exit code). */
  exec(name: string, command: readonly string[], options: ExecOptions = {}): Promise<ExecSession> {
    if (!Array.isArray(command) || command.length === 0 || command.some((c) => typeof c !== "string"))
      return Promise.reject(invalidOption("exec needs a non-empty command array of strings"));
    return this.#session(name, "exec", { command: [...command] }, options);
  }

  /** Attaches to the container's main process (its stdin if `stdin`, and its output). */
  attach(name: string, options: ExecOptions = {}): Promise<ExecSession> {
    return this.#session(name, "attach", {}, options);
  }

  /** Runs a command to completion, collecting its output. Non-zero exits resolve with their code. */
  async run(name: string, command: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const { input, ...rest } = options;
    const session = await this.exec(name, command, { ...rest, stdin: input !== undefined, tty: false });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      const chunks: Buffer[] = [];
      stream?.on("data", (c: Buffer) => chunks.push(c));
      return chunks;
    };
    const out = collect(session.stdout);
    const err = collect(session.stderr);
    if (input !== undefined) session.stdin?.end(Buffer.from(input));
    const result = await session.done;
    return { ...result, stdout: Buffer.concat(out), stderr: Buffer.concat(err) };
  }

  /** Listens locally and forwards each connection to the pod's port. Stop with `close()`. */
  async portForward(
    name: string,
    ports: number | readonly (number | PortMapping)[],
    options: PortForwardOptions = {},
  ): Promise<PortForward> {
    const namespace = options.namespace ?? this.#namespace;
    const path = podPath(namespace, name, "portforward");
    const mappings = (typeof ports === "number" ? [ports] : ports).map((p) =>
      typeof p === "number" ? { remote: p } : p,
    );
    const forward = new PortForward(
      (remote) =>
        openSocket(this.#transport, {
          path,
          query: { ports: String(remote) },
          protocols: PORT_FORWARD_PROTOCOLS,
        }),
      options.onError,
    );
    try {
      await forward.listen(mappings, options.host ?? "127.0.0.1");
    } catch (err) {
      await forward.close();
      throw err;
    }
    options.signal?.addEventListener("abort", () => void forward.close(), { once: true });
    return forward;
  }

  /** Copies a local file or directory into `remoteDir` of the container (needs `tar` there and v5). */
  async copyTo(name: string, localPath: string, remoteDir: string, options: CopyOptions = {}): Promise<void> {
    const session = await this.exec(name, ["tar", "xf", "-", "-C", remoteDir], { ...options, stdin: true });
    if (session.protocol !== CHANNEL_PROTOCOLS[0]) {
      session.close();
      throw new PodIoError(
        "COPY_FAILED",
        `copying into a container needs ${CHANNEL_PROTOCOLS[0]} (end of stdin)`,
      );
    }
    const stderr = collectText(session.stderr);
    await packTree(localPath, session.stdin as Writable);
    await finishCopy(session, stderr, "tar xf");
  }

  /** Copies a file or directory of the container into the local directory `localDir`. */
  async copyFrom(
    name: string,
    remotePath: string,
    localDir: string,
    options: CopyOptions = {},
  ): Promise<number> {
    const trimmed = remotePath.replace(/\/+$/, "") || "/";
    const cut = trimmed.lastIndexOf("/");
    const dir = cut <= 0 ? "/" : trimmed.slice(0, cut);
    const base = trimmed.slice(cut + 1) || ".";
    const session = await this.exec(name, ["tar", "cf", "-", "-C", dir, base], options);
    const stderr = collectText(session.stderr);
    const archive = new PassThrough();
    session.stdout?.pipe(archive);
    const [files] = await Promise.all([unpackTree(archive, localDir), finishCopy(session, stderr, "tar cf")]);
    return files;
  }

  /** Evicts a pod (`pods/eviction`); a PodDisruptionBudget refusal is an ApiError with isTooManyRequests. */
  async evict(name: string, options: EvictOptions = {}): Promise<void> {
    const namespace = options.namespace ?? this.#namespace;
    await this.#transport.requestJson(
      {
        method: "POST",
        path: podPath(namespace, name, "eviction"),
        body: {
          apiVersion: "policy/v1",
          kind: "Eviction",
          metadata: { name, namespace },
          ...(options.dryRun || options.gracePeriodSeconds !== undefined
            ? {
                deleteOptions: {
                  ...(options.dryRun ? { dryRun: ["All"] } : {}),
                  ...(options.gracePeriodSeconds !== undefined
                    ? { gracePeriodSeconds: options.gracePeriodSeconds }
                    : {}),
                },
              }
            : {}),
        },
      },
      { retries: false },
    );
  }

  /** An HTTP request to the pod through the API server (`pods/proxy`); returns the raw body. */
  async proxy(name: string, path: string, options: ProxyOptions = {}): Promise<Uint8Array> {
    const namespace = options.namespace ?? this.#namespace;
    const pod = podPath(namespace, name, "proxy").slice(0, -"/proxy".length);
    const port = options.port === undefined ? "" : `:${encodeURIComponent(String(options.port))}`;
    const base = `${pod}${port}/proxy`;
    const response = await this.#transport.request(
      {
        method: options.method ?? "GET",
        path: `${base}/${path.replace(/^\/+/, "")}`,
        ...(options.query !== undefined ? { query: options.query } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        accept: "*/*",
      },
      options.signal !== undefined ? { signal: options.signal } : {},
    );
    return response.body;
  }

  async #session(
    name: string,
    subresource: "exec" | "attach",
    extra: Record<string, QueryValue>,
    options: ExecOptions,
  ): Promise<ExecSession> {
    const tty = options.tty === true;
    const setup = {
      stdin: options.stdin === true,
      stdout: options.stdout !== false,
      stderr: options.stderr !== false && !tty,
      tty,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    const flag = (b: boolean) => (b ? "true" : "false");
    const socket = await openSocket(this.#transport, {
      path: podPath(options.namespace ?? this.#namespace, name, subresource),
      query: {
        ...extra,
        container: options.container,
        stdin: flag(setup.stdin),
        stdout: flag(setup.stdout),
        stderr: flag(setup.stderr),
        tty: flag(tty),
      },
      protocols: options.protocols ?? CHANNEL_PROTOCOLS,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    return new ExecSession(socket, setup);
  }
}

function collectText(stream: NodeJS.ReadableStream | null): () => string {
  const chunks: Buffer[] = [];
  stream?.on("data", (c: Buffer) => chunks.push(c));
  return () => Buffer.concat(chunks).toString("utf8").trim();
}

async function finishCopy(session: ExecSession, stderr: () => string, what: string): Promise<void> {
  const result = await session.done;
  if (result.exitCode !== 0)
    throw new PodIoError(
      "COPY_FAILED",
      `${what} exited with ${result.exitCode}: ${stderr() || "no message"}`,
    );
}
