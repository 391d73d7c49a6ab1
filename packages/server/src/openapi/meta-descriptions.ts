/**
 * Descriptions of ObjectMeta's fields, in the server's own words. Built-in schemas otherwise carry no
 * descriptions (components.ts); these are the exception because every kind, custom ones included,
 * shows them: `kubectl explain <kind>.metadata` prints them as its FIELDS.
 */
export const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

export const OBJECT_META_DESCRIPTIONS: Readonly<Record<string, string>> = {
  annotations:
    "Free-form key/value strings that people and tools attach to the object; not used to select objects.",
  creationTimestamp:
    "CreationTimestamp is a timestamp of when the server created the object, in RFC 3339 form and UTC. Set by the server; clients cannot change it.",
  deletionGracePeriodSeconds:
    "Seconds the object is given to terminate gracefully once its deletion was requested; set by the server with deletionTimestamp.",
  deletionTimestamp:
    "When the object is to be removed: set by the server when its deletion is requested while finalizers remain or a grace period runs.",
  finalizers:
    "Names of the tasks that must finish before the object is removed; a deleted object stays, marked by deletionTimestamp, until the list is empty.",
  generateName: "A prefix the server extends with random characters into a unique name when name is empty.",
  generation: "A number the server increases whenever the object's desired state changes.",
  labels: "Key/value pairs to organize objects and select them with label selectors.",
  managedFields:
    "Which field manager set which fields, and when, as the server tracks it for server-side apply.",
  name: "The object's name, unique among the objects of its kind in its namespace (or in the cluster, for cluster-scoped kinds).",
  namespace: "The namespace the object is in; empty for cluster-scoped kinds.",
  ownerReferences:
    "The objects this object belongs to; once all of them are gone, the garbage collector deletes it.",
  resourceVersion:
    "An opaque value that changes whenever the object changes; writes use it for optimistic concurrency, and watches start from it.",
  selfLink: "Deprecated: no longer set by the server.",
  uid: "An identifier the server assigns when it creates the object, unique in time and space.",
};
