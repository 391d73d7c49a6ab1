/** What the reference server's pod simulation hands to user hooks. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex, Readable, Writable } from "node:stream";
import type { coreV1 } from "@kubesdk/models";
import type { PodBehaviour } from "../cluster/index.js";

/** The container a request addresses. */
export interface ContainerRef {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  /** The stored Pod object. */
  readonly object: Readonly<Record<string, unknown>>;
}

/** A command run in a container (`exec`) or an attach to its main process. */
export interface ProcessContext extends ContainerRef {
  /** The command (empty for attach). */
  readonly command: readonly string[];
  readonly tty: boolean;
  /** Ends when the client closes stdin (v5) or the stream. */
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** Merged into stdout for TTY sessions. */
  readonly stderr: Writable;
  /** Registers a listener for terminal resizes. */
  onResize(listener: (size: { columns: number; rows: number }) => void): void;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The container's in-memory filesystem (what the default shell and `tar` read and write). */
  readonly files: Map<string, Buffer>;
}

/** The pod a request addresses (no container: ports and usage belong to the pod). */
export type PodRef = Omit<ContainerRef, "container">;

/** Serves one HTTP request to a pod's port (`req.url` is the path and query inside the pod). */
export type PodHttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** The CPU and memory a simulated container or node reports, as quantities, e.g. `{ cpu: "250m", memory: "64Mi" }`. */
export type SimulatedUsage = Readonly<Record<string, string>>;

/** How a process ended: an exit code, or a failure message (reported as an InternalError Status). */
export type ProcessOutcome = number | { readonly error: string };

/**
 * Hooks of the pod simulation (`startServer({ pods: … })`). A hook returning `undefined` falls back
 * to the default behaviour: an echo shell for exec, `cat` for attach, an echo server for port-forward.
 */
export interface PodRuntimeOptions {
  readonly exec?: (
    process: ProcessContext,
  ) => Promise<ProcessOutcome | undefined> | ProcessOutcome | undefined;
  readonly attach?: (
    process: ProcessContext,
  ) => Promise<ProcessOutcome | undefined> | ProcessOutcome | undefined;
  /** A stream to the pod's port, or `undefined` for the default echo server; throw to refuse. */
  readonly portForward?: (container: PodRef, port: number) => Duplex | undefined;
  /**
   * The HTTP server on a pod's port (what `pods/proxy` reaches), or `undefined` for the default:
   * it answers 200 with `<METHOD> <path>` on the first line and the request body after it.
   */
  readonly http?: (pod: PodRef, port: number) => PodHttpHandler | undefined;
  /**
   * What a pod of the simulated cluster does (start and ready delays, readiness, when its containers
   * exit and with which code), asked for each pod; `undefined` leaves it to the stages, the pod's
   * `sim.kubesdk.dev/*` annotations and `pods.behave`.
   */
  readonly behaviour?: (pod: coreV1.Pod) => PodBehaviour | undefined;
}
