// kubesdk/client: request options, patch types, paging, discovery, table and subresource clients,
// pod I/O, manifests, custom resource definitions and waits: @kubesdk/client whole.
export * from "@kubesdk/client";
