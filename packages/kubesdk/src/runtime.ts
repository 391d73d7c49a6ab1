// kubesdk/runtime: the controller runtime (like kube-rs's `kube::runtime`): work queue and rate
// limiters, controllers, manager, leader election, sharding, events, metrics, webhooks and the
// object helpers: @kubesdk/controller whole.
export * from "@kubesdk/controller";
