import { describe, expect, it } from "vitest";
import { FieldPathError, parseFieldPath, removePath } from "../src/field-path.js";

describe("field paths", () => {
  it("parses fields, keys, values and indices", () => {
    expect(parseFieldPath('.spec.containers[name="web",port=80].ports[=8080][2]')).toEqual([
      { field: "spec" },
      { field: "containers" },
      { key: { name: "web", port: 80 } },
      { field: "ports" },
      { value: 8080 },
      { index: 2 },
    ]);
    expect(parseFieldPath('.a[name="x]y"]')).toEqual([{ field: "a" }, { key: { name: "x]y" } }]);
  });

  it("rejects malformed paths with a typed error", () => {
    for (const bad of ["spec", ".a[name=", ".a[=]", ".a[x]"])
      expect(() => parseFieldPath(bad)).toThrow(FieldPathError);
  });

  it("removes a path without touching the rest or the input", () => {
    const config = {
      spec: {
        replicas: 3,
        template: {
          spec: {
            containers: [
              { name: "a", image: "x" },
              { name: "b", image: "y" },
            ],
          },
        },
      },
    };
    expect(removePath(config, parseFieldPath(".spec.replicas"))).toEqual({
      spec: { template: config.spec.template },
    });
    expect(removePath(config, parseFieldPath('.spec.template.spec.containers[name="b"].image'))).toEqual({
      spec: { replicas: 3, template: { spec: { containers: [{ name: "a", image: "x" }, { name: "b" }] } } },
    });
    expect(
      removePath(config, parseFieldPath('.spec.template.spec.containers[name="a"]')).spec.template.spec
        .containers,
    ).toEqual([{ name: "b", image: "y" }]);
    expect(config.spec.replicas).toBe(3);
    expect(removePath(config, parseFieldPath(".spec.absent.deeper"))).toBe(config);
  });
});
