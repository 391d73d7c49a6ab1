// @kubesdk/transport/internal: building blocks the other kubesdk packages and the repository's
// tests share with the transport. NOT a public API: names here change without notice; applications
// use `@kubesdk/transport` (or `kubesdk`).

export {
  EXEC_API_VERSIONS,
  EXEC_INTERACTIVE_MODES,
  type ExecClusterInfo,
  type ExecCredentialStatus,
  type ExecRunContext,
  runExecPlugin,
} from "./auth/exec-plugin.js";
export { StatCachedFile, type StatCachedFileOptions } from "./auth/stat-cached-file.js";
export { describeIssues } from "./errors/issues.js";
export { createDispatcher } from "./http/dispatcher.js";
export { decodeJsonBody } from "./http/json-body.js";
export {
  buildHttpRequest,
  encodeQuery,
  type HttpRequestParts,
  type RequestContext,
  withCredentials,
} from "./http/request.js";
export { DEFAULT_RETRY_OPTIONS, isRetryable, resolveRetryOptions, retryDelayMs } from "./http/retry.js";
export { defaultUserAgent } from "./http/user-agent.js";
export { type BatchedWatchStream, isBatchedWatchStream, nextWatchBatch } from "./http/watch-stream.js";
export { DEFAULT_SERVICE_ACCOUNT_DIR } from "./in-cluster.js";
export {
  type ActiveSpan,
  type SpanAttributes,
  startSpan,
  TRACER_NAME,
  traced,
} from "./telemetry/tracing.js";
export { type Framer, LengthPrefixedFramer, LineFramer } from "./watch/framers.js";
export { decodeJsonWatchFrame } from "./watch/json-frame.js";
export { decodeProtobufWatchFrame, protobufWatchFrameDecoder } from "./watch/protobuf-frame.js";
export {
  DEFAULT_MAX_WATCH_EVENT_BYTES,
  WatchDecoder,
  type WatchDecoderOptions,
  type WatchDecoderSelection,
  type WatchFraming,
  watchDecoderForContentType,
} from "./watch/watch-decoder.js";
export type { DecodedWatchEvent, WatchErrorEvent } from "./watch/watch-event.js";
