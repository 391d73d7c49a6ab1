/** The generator's small readers, on hand-made input. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CodegenError } from "../../../scripts/codegen/errors.js";
import { readGoFieldFacts } from "../../../scripts/codegen/go-field-facts.js";
import { namesFor, readRegistryNames } from "../../../scripts/codegen/go-registry.js";
import { parsePath } from "../../../scripts/codegen/resource-paths.js";
import { toShape } from "../../../scripts/codegen/shape.js";
import { upstreamModuleDir } from "../../../scripts/codegen/upstream.js";

let registryRoot: string;

beforeAll(async () => {
  registryRoot = await mkdtemp(join(tmpdir(), "kubesdk-go-registry-"));
  await mkdir(join(registryRoot, "apps", "widget", "storage"), { recursive: true });
  await writeFile(
    join(registryRoot, "apps", "widget", "storage", "storage.go"),
    [
      "func NewREST() {",
      "  store := &genericregistry.Store{",
      '    DefaultQualifiedResource:  apps.Resource("widgets"),',
      '    SingularQualifiedResource: apps.Resource("widget"),',
      "  }",
      "}",
      'func (r *REST) ShortNames() []string {\n\treturn []string{"wd", "wdg"}\n}',
      'func (r *REST) Categories() []string {\n\treturn []string{"all"}\n}',
    ].join("\n"),
  );
  await mkdir(join(registryRoot, "core", "gadget"), { recursive: true });
  await writeFile(
    join(registryRoot, "core", "gadget", "rest.go"),
    'func (r *REST) ShortNames() []string {\n\treturn []string{"gd"}\n}\n',
  );
  await writeFile(
    join(registryRoot, "core", "gadget", "rest_test.go"),
    'DefaultQualifiedResource: x.Resource("nope")',
  );
});

afterAll(async () => {
  await rm(registryRoot, { recursive: true, force: true });
});

describe("Go registry reader", () => {
  test("reads qualified names, short names and categories per storage", async () => {
    const names = await readRegistryNames([registryRoot]);
    expect(names).toEqual([
      {
        source: "apps/widget",
        plural: "widgets",
        singular: "widget",
        shortNames: ["wd", "wdg"],
        categories: ["all"],
      },
      {
        source: "core/gadget",
        plural: undefined,
        singular: undefined,
        shortNames: ["gd"],
        categories: undefined,
      },
    ]);
    expect(namesFor(names, "widgets", "Widget")).toEqual({
      singular: "widget",
      shortNames: ["wd", "wdg"],
      categories: ["all"],
    });
    // No qualified resource: matched by directory name = lowercase kind.
    expect(namesFor(names, "gadgets", "Gadget")).toEqual({
      singular: "gadget",
      shortNames: ["gd"],
      categories: [],
    });
    expect(namesFor(names, "sprockets", "Sprocket")).toEqual({
      singular: "sprocket",
      shortNames: [],
      categories: [],
    });
  });
});

describe("OpenAPI path parser", () => {
  test("splits group, version, scope, resource and subresource", () => {
    expect(parsePath("/api/v1/namespaces/{namespace}/pods/{name}/log")).toEqual({
      group: "",
      version: "v1",
      namespaced: true,
      plural: "pods",
      subresource: "log",
    });
    expect(parsePath("/apis/apps/v1/watch/deployments")).toMatchObject({
      plural: "deployments",
      namespaced: false,
    });
    expect(parsePath("/api/v1/namespaces/{name}/finalize")).toMatchObject({
      plural: "namespaces",
      namespaced: false,
      subresource: "finalize",
    });
    expect(parsePath("/apis/apps/v1/")).toBeUndefined();
    expect(parsePath("/version/")).toBeUndefined();
    expect(() => parsePath("/api/v1/pods/odd/extra")).toThrow(CodegenError);
  });
});

describe("schema normaliser", () => {
  test("reads references, markers and merge extensions; never descriptions", () => {
    const shape = toShape(
      {
        type: "array",
        description: "upstream prose",
        items: { allOf: [{ $ref: "#/components/schemas/io.k8s.api.core.v1.Container" }] },
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
      },
      "test",
    );
    expect(shape).toEqual({
      kind: "list",
      items: { kind: "ref", target: "io.k8s.api.core.v1.Container" },
      listType: "map",
      listMapKeys: ["name"],
    });
    expect(toShape({ type: "string", format: "byte" }, "t")).toMatchObject({ marker: "bytes" });
  });

  test("rejects what it does not understand, naming the place", () => {
    expect(() => toShape({ oneOf: [{ type: "string" }, { type: "boolean" }] }, "io.x.Thing")).toThrow(
      /io\.x\.Thing: unsupported oneOf/,
    );
    expect(() => toShape({ type: "array", "x-kubernetes-list-type": "bag" }, "io.x.Thing.f")).toThrow(
      /io\.x\.Thing\.f: bad x-kubernetes-list-type/,
    );
  });
});

/** A release that does not exist (yet), so no module proxy has it. */
const unpublishedRelease = {
  kubernetes: "1.999.0",
  kubernetesModuleVersion: "v1.999.0",
  stagingModuleVersion: "v0.999.0",
};

describe("upstream modules", () => {
  test("a release the module proxy does not have fails with a typed error", async () => {
    await expect(upstreamModuleDir("k8s.io/api", unpublishedRelease)).rejects.toMatchObject({
      code: "ERR_GO_MOD_DOWNLOAD",
      message: expect.stringContaining("k8s.io/api@v0.999.0"),
    });
  });
});

describe("Go field facts reader", () => {
  test("the check mode refuses a go.mod that does not require the pinned release", async () => {
    await expect(readGoFieldFacts(unpublishedRelease, { updateGoMod: false })).rejects.toMatchObject({
      code: "ERR_GO_FIELD_FACTS",
      message: expect.stringContaining("go-field-facts/go.mod does not require k8s.io/api@v0.999.0"),
    });
  });
});
