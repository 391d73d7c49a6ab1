// kubesdk/transport: connections and kubeconfig loading, credentials, the HTTP transport, retries,
// request hooks, watch decoding and the whole error API: @kubesdk/transport whole.
export * from "@kubesdk/transport";
