// kubesdk/informer: informers, the store and its indexers, event and list-watch types:
// @kubesdk/informer whole.
export * from "@kubesdk/informer";
