/**
 * The large-CRD phases of isolation-bench.ts: one client creating (then deleting) a CRD whose
 * schema has a 60,000-value enum or 20,000 properties, while another sends small GETs. Each
 * create is a fresh name, so every round compiles, checks and serves the schema anew.
 */
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const GROUP = "iso.kubesdk.example";

type Call = (method: string, path: string, body?: string, contentType?: string) => Promise<number>;

function crd(plural: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, kind: `K${plural}` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec } } },
        },
      ],
    },
  };
}

export interface LargeCrd {
  readonly name: string;
  readonly send: () => Promise<number>;
}

/** Creates a CRD under a new name and deletes it again; answers the create's status code. */
function createAndDelete(call: Call, label: string, spec: Record<string, unknown>): () => Promise<number> {
  let round = 0;
  return async () => {
    const plural = `${label}${round++}`;
    const code = await call("POST", CRDS, JSON.stringify(crd(plural, spec)), "application/json");
    await call("DELETE", `${CRDS}/${plural}.${GROUP}`);
    return code;
  };
}

export function largeCrds(call: Call): LargeCrd[] {
  const values = Array.from({ length: 60_000 }, (_, i) => `value-${i}`);
  const properties = Object.fromEntries(
    Array.from({ length: 20_000 }, (_, i) => [`field${i}`, { type: "string" }]),
  );
  return [
    {
      name: "CRD, 60k-value enum",
      send: createAndDelete(call, "enums", { type: "string", enum: values }),
    },
    {
      name: "CRD, 20k properties",
      send: createAndDelete(call, "props", { type: "object", properties }),
    },
  ];
}
