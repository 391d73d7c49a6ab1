/**
 * Facts about the Go struct field behind every protobuf message field, read with `reflect` by the
 * Go program in go-field-facts/ (our own code, built against the pinned k8s.io modules). Its
 * go.mod follows k8s-release.json: `pnpm codegen` moves it to the pinned versions, the check mode
 * only reports a mismatch.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CodegenError } from "./errors.js";
import { runGo } from "./go.js";
import { isObject } from "./shape.js";
import { moduleVersion, type PinnedRelease, repoRoot, type UpstreamModule } from "./upstream.js";

export type GoFieldKind = "scalar" | "bytes" | "slice" | "map" | "struct";

export interface GoFieldFact {
  readonly goName: string;
  readonly proto: string;
  readonly number: number;
  /** JSON key; "" when the struct is embedded and its fields join the parent's JSON object. */
  readonly json: string;
  readonly pointer: boolean;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly kind: GoFieldKind;
}

export interface GoMessageFacts {
  /** Protobuf full name, e.g. "k8s.io.api.apps.v1.DeploymentSpec". */
  readonly name: string;
  readonly goType: string;
  readonly goKind: "struct" | "slice";
  /** The Go type has its own MarshalJSON; its fields are not listed. */
  readonly customJson: boolean;
  /** In Go struct order, which is the order encoding/json writes them. */
  readonly fields: readonly GoFieldFact[];
}

export const goFieldFactsDir = join(repoRoot, "scripts", "codegen", "go-field-facts");

const pinnedModules: readonly UpstreamModule[] = [
  "k8s.io/api",
  "k8s.io/apiextensions-apiserver",
  "k8s.io/apimachinery",
  "k8s.io/kube-aggregator",
];

export async function readGoFieldFacts(
  release: PinnedRelease,
  options: { readonly updateGoMod: boolean },
): Promise<GoMessageFacts[]> {
  await pinGoMod(release, options.updateGoMod);
  const { stdout, failure } = await runGo(["run", "."], goFieldFactsDir);
  if (failure) throw new CodegenError("ERR_GO_FIELD_FACTS", `go-field-facts failed: ${failure}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (cause) {
    throw new CodegenError("ERR_GO_FIELD_FACTS", "go-field-facts printed something other than JSON", {
      cause,
    });
  }
  if (!isObject(parsed) || !Array.isArray(parsed.messages)) {
    throw new CodegenError("ERR_GO_FIELD_FACTS", "go-field-facts output has no messages list");
  }
  return parsed.messages.map(checkMessage);
}

/** Makes go.mod require the pinned versions (update) or fails naming the ones that differ. */
async function pinGoMod(release: PinnedRelease, update: boolean): Promise<void> {
  const goMod = await readFile(join(goFieldFactsDir, "go.mod"), "utf8");
  const stale = pinnedModules.filter((module) => {
    const required = new RegExp(`^\\s*(?:require\\s+)?${module.replace(/\./g, "\\.")}\\s+(\\S+)`, "m").exec(
      goMod,
    );
    return required?.[1] !== moduleVersion(module, release);
  });
  if (stale.length === 0) return;
  const wanted = stale.map((m) => `${m}@${moduleVersion(m, release)}`);
  if (!update) {
    throw new CodegenError(
      "ERR_GO_FIELD_FACTS",
      `scripts/codegen/go-field-facts/go.mod does not require ${wanted.join(", ")} (k8s-release.json); run \`pnpm codegen\``,
    );
  }
  for (const args of [
    ["get", ...wanted],
    ["mod", "tidy"],
  ]) {
    const { failure } = await runGo(args, goFieldFactsDir);
    if (failure) throw new CodegenError("ERR_GO_FIELD_FACTS", `go ${args.join(" ")} failed: ${failure}`);
  }
}

const kinds: ReadonlySet<string> = new Set<GoFieldKind>(["scalar", "bytes", "slice", "map", "struct"]);

function checkMessage(value: unknown, index: number): GoMessageFacts {
  const bad = (what: string): never => {
    throw new CodegenError("ERR_GO_FIELD_FACTS", `go-field-facts messages[${index}]: ${what}`);
  };
  if (!isObject(value)) return bad("not an object");
  const { name, goType, goKind, customJson, fields } = value;
  if (typeof name !== "string" || typeof goType !== "string") return bad("no name or goType");
  if (goKind !== "struct" && goKind !== "slice") return bad(`${name}: goKind ${String(goKind)}`);
  if (typeof customJson !== "boolean" || !Array.isArray(fields)) return bad(`${name}: no fields`);
  return { name, goType, goKind, customJson, fields: fields.map((f) => checkField(f, bad)) };
}

function checkField(value: unknown, bad: (what: string) => never): GoFieldFact {
  if (!isObject(value)) return bad("a field is not an object");
  const { goName, proto, number, json, pointer, omitEmpty, omitZero, kind } = value;
  const ok =
    typeof goName === "string" &&
    typeof proto === "string" &&
    typeof number === "number" &&
    typeof json === "string" &&
    typeof pointer === "boolean" &&
    typeof omitEmpty === "boolean" &&
    typeof omitZero === "boolean" &&
    typeof kind === "string" &&
    kinds.has(kind);
  if (!ok) return bad(`field ${JSON.stringify(goName)} is malformed`);
  return { goName, proto, number, json, pointer, omitEmpty, omitZero, kind: kind as GoFieldKind };
}
