// kubesdk/models: every model type by kind name and by group namespace (`coreV1.Pod`), the resource
// registry, schema and merge metadata, and the JSON/protobuf wire codec: @kubesdk/models whole.
export * from "@kubesdk/models";
