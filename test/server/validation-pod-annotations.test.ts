/**
 * Issue 31: a pod's own annotations — the deprecated seccomp and AppArmor annotations (their form,
 * their agreement with the profile fields, AppArmor's copy into unset fields at create and no
 * change on update), the mirror-pod, deletion-cost and tolerations annotations — answered as
 * kube-apiserver 1.37 answers them.
 */
import { describe, expect, it } from "vitest";
import { pod, podValidationSuite } from "./pod-validation-suite.js";
import { checkRow, createThenPut, NAME_PART } from "./spec-validation-cases.js";

const { target, podPath } = podValidationSuite("val-podann");

const KEY = "container.apparmor.security.beta.kubernetes.io/";
/** A pod with these annotations and spec fields. */
const annotated = (annotations: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  ...pod(spec),
  metadata: { name: "p", annotations },
});
const profiled = (appArmorProfile: Record<string, unknown>) => ({
  containers: [{ name: "c", image: "busybox", securityContext: { appArmorProfile } }],
});
const FIELD = "spec.containers[0].securityContext.appArmorProfile";

/** [what, annotations, spec fields, causes]. */
const ANNOTATIONS: [string, Record<string, string>, Record<string, unknown>, string[]][] = [
  [
    "annotations that agree with the fields",
    { [`${KEY}c`]: "localhost/a" },
    profiled({ type: "Localhost", localhostProfile: "a" }),
    [],
  ],
  [
    "an annotation for no container, with an unknown profile",
    { [`${KEY}x`]: "bogus" },
    {},
    [
      `metadata.annotations[${KEY}x] | FieldValueInvalid | Invalid value: "x": container not found`,
      `metadata.annotations[${KEY}x] | FieldValueInvalid | Invalid value: "bogus": invalid AppArmor profile name: "bogus"`,
    ],
  ],
  [
    "an annotation of another type than the field",
    { [`${KEY}c`]: "unconfined" },
    profiled({ type: "RuntimeDefault" }),
    [`${FIELD}.type | FieldValueForbidden | Forbidden: apparmor type in annotation and field must match`],
  ],
  [
    "an annotation of another profile than the field",
    { [`${KEY}c`]: "localhost/b" },
    profiled({ type: "Localhost", localhostProfile: "a" }),
    [
      `${FIELD}.localhostProfile | FieldValueForbidden | Forbidden: apparmor profile in annotation and field must match`,
    ],
  ],
  [
    "a padded annotation profile against the pod's profile",
    { [`${KEY}c`]: "localhost/ p" },
    { securityContext: { appArmorProfile: { type: "Localhost", localhostProfile: "p" } } },
    [
      `${FIELD}.localhostProfile | FieldValueForbidden | Forbidden: apparmor profile in annotation and field must match`,
    ],
  ],
];

const MIRROR = "kubernetes.io/config.mirror";
const COST = "controller.kubernetes.io/pod-deletion-cost";
const TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations";
const cost = (v: string) =>
  `metadata.annotations[${COST}] | FieldValueInvalid | Invalid value: "${v}": must be a 32bit integer`;
/** [what, annotations, causes]: the mirror-pod, deletion-cost and tolerations annotations. */
const POD_ANNOTATIONS: [string, Record<string, string>, string[]][] = [
  [
    "a valid deletion cost and tolerations annotation",
    { [COST]: "-7", [TOLERATIONS]: '[{"key":"k","operator":"Exists"}]' },
    [],
  ],
  [
    "a mirror annotation without a node",
    { [MIRROR]: "x" },
    [
      `metadata.annotations[${MIRROR}] | FieldValueInvalid | Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`,
    ],
  ],
  ["a deletion cost with a plus sign", { [COST]: "+5" }, [cost("+5")]],
  ["a deletion cost with a leading zero", { [COST]: "007" }, [cost("007")]],
  ["a deletion cost beyond 32 bits", { [COST]: "2147483648" }, [cost("2147483648")]],
  [
    "an invalid toleration in the tolerations annotation",
    { [TOLERATIONS]: '[{"KEY":"a b","operator":"Exists"}]' },
    [`metadata.annotations.${TOLERATIONS}[0].key | FieldValueInvalid | Invalid value: "a b": ${NAME_PART}`],
  ],
  [
    "a tolerations annotation that is no list",
    { [TOLERATIONS]: '{"key":"k"}' },
    [
      `metadata.annotations | FieldValueInvalid | Invalid value: "${TOLERATIONS}": json: cannot unmarshal object into Go value of type []core.Toleration`,
    ],
  ],
  [
    "a tolerations annotation with a mistyped field",
    { [TOLERATIONS]: '[{"key":"k","tolerationSeconds":"5"}]' },
    [
      `metadata.annotations | FieldValueInvalid | Invalid value: "${TOLERATIONS}": json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64`,
    ],
  ],
];

describe("mirror-pod, deletion-cost and tolerations annotations", () => {
  for (const [what, annotations, causes] of POD_ANNOTATIONS)
    it(`answers a pod with ${what} as kube-apiserver does`, () =>
      checkRow(target(), { name: what, path: podPath(), body: annotated(annotations), causes }));

  it("refuses a mirror annotation added on update", async () => {
    const res = await createThenPut(target(), podPath(), annotated({}), (created) => ({
      ...created,
      metadata: { ...(created.metadata as object), annotations: { [MIRROR]: "x" } },
    }));
    expect(res.status).toBe(422);
    expect(res.causes.sort()).toEqual(
      [
        `metadata.annotations[${MIRROR}] | FieldValueForbidden | Forbidden: may not add mirror pod annotation`,
        `metadata.annotations[${MIRROR}] | FieldValueInvalid | Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`,
      ].sort(),
    );
  });
});

const SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_C = "container.seccomp.security.alpha.kubernetes.io/c";
const seccomp = (pod: unknown, container: unknown) => ({
  securityContext: { seccompProfile: pod },
  containers: [{ name: "c", image: "busybox", securityContext: { seccompProfile: container } }],
});
/** [what, annotations, spec fields, causes]. */
const SECCOMP: [string, Record<string, string>, Record<string, unknown>, string[]][] = [
  [
    "seccomp annotations that agree with the fields",
    { [SECCOMP_POD]: "docker/default", [SECCOMP_C]: "localhost/p.json" },
    seccomp({ type: "RuntimeDefault" }, { type: "Localhost", localhostProfile: "p.json" }),
    [],
  ],
  [
    "seccomp annotations of unknown forms",
    { [SECCOMP_POD]: "bogus", [SECCOMP_C]: "localhost//abs/../p" },
    {},
    [
      `metadata.annotations.${SECCOMP_POD} | FieldValueInvalid | Invalid value: "bogus": must be a valid seccomp profile`,
      `metadata.annotations.${SECCOMP_C} | FieldValueInvalid | Invalid value: "/abs/../p": must be a relative path`,
      `metadata.annotations.${SECCOMP_C} | FieldValueInvalid | Invalid value: "/abs/../p": must not contain '..'`,
    ],
  ],
  [
    "seccomp annotations that disagree with the fields",
    { [SECCOMP_POD]: "runtime/default", [SECCOMP_C]: "localhost/b" },
    seccomp({ type: "Unconfined" }, { type: "Localhost", localhostProfile: "a" }),
    [
      "spec.securityContext.seccompProfile.type | FieldValueForbidden | Forbidden: seccomp type in annotation and field must match",
      "spec.containers[0].securityContext.seccompProfile.localhostProfile | FieldValueForbidden | Forbidden: seccomp profile in annotation and field must match",
    ],
  ],
];

describe("seccomp annotations", () => {
  for (const [what, annotations, spec, causes] of SECCOMP)
    it(`answers a pod with ${what} as kube-apiserver does`, () =>
      checkRow(target(), { name: what, path: podPath(), body: annotated(annotations, spec), causes }));
});

describe("AppArmor annotations", () => {
  for (const [what, annotations, spec, causes] of ANNOTATIONS)
    it(`answers a pod with ${what} as kube-apiserver does`, () =>
      checkRow(target(), { name: what, path: podPath(), body: annotated(annotations, spec), causes }));

  it("copies an annotation into a container without a profile field at create", async () => {
    const body = annotated(
      { [`${KEY}c`]: "runtime/default", [`${KEY}d`]: "localhost/a" },
      {
        securityContext: { appArmorProfile: { type: "Localhost", localhostProfile: "a" } },
        containers: [
          { name: "c", image: "busybox" },
          { name: "d", image: "busybox" },
        ],
      },
    );
    const res = await target().call("POST", `${podPath()}?dryRun=All`, { body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const [c, d] = res.json.spec.containers;
    expect(c.securityContext).toEqual({ appArmorProfile: { type: "RuntimeDefault" } });
    // The same profile as the pod's is not copied.
    expect(d.securityContext).toBeUndefined();
  });

  it("refuses changed, removed and added annotations on update", async () => {
    const body = annotated(
      { [`${KEY}c`]: "runtime/default", [`${KEY}d`]: "unconfined" },
      {
        containers: [
          { name: "c", image: "busybox" },
          { name: "d", image: "busybox" },
        ],
      },
    );
    const res = await createThenPut(target(), podPath(), body, (created) => {
      const meta = created.metadata as { annotations: Record<string, string> };
      const { [`${KEY}d`]: _removed, ...kept } = meta.annotations;
      return {
        ...created,
        metadata: { ...meta, annotations: { ...kept, [`${KEY}c`]: "unconfined", [`${KEY}e`]: "unconfined" } },
      };
    });
    expect(res.status).toBe(422);
    expect(res.causes.sort()).toEqual(
      [
        `metadata.annotations[${KEY}c] | FieldValueForbidden | Forbidden: may not remove or update AppArmor annotations`,
        `metadata.annotations[${KEY}d] | FieldValueForbidden | Forbidden: may not remove or update AppArmor annotations`,
        `metadata.annotations[${KEY}e] | FieldValueForbidden | Forbidden: may not add AppArmor annotations`,
        // The new key names no container (upstream finds it twice; both servers answer one cause).
        `metadata.annotations[${KEY}e] | FieldValueInvalid | Invalid value: "e": container not found`,
      ].sort(),
    );
  });
});
