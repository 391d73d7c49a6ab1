// The object type of a defined custom resource is inferred from its TypeBox schema.
import { CrdType, type CustomResourceOf, type DefinedResourceClient, type Kube } from "@kubesdk/client";
import type { metaV1 } from "@kubesdk/models";
import type { Static } from "typebox";
import { describe, expectTypeOf, it } from "vitest";
import type { widgetDefinition } from "./defined-widget.js";

type Definition = ReturnType<typeof widgetDefinition>;
type Widget = CustomResourceOf<Definition, "v1">;

describe("CustomResourceOf", () => {
  it("infers field types, optionality, enums, nullability and int-or-string", () => {
    expectTypeOf<Widget["spec"]["size"]>().toEqualTypeOf<number>();
    expectTypeOf<Widget["spec"]["color"]>().toEqualTypeOf<"red" | "green" | "blue" | undefined>();
    expectTypeOf<Widget["spec"]["note"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Widget["spec"]["port"]>().toEqualTypeOf<number | string | undefined>();
    expectTypeOf<Widget["apiVersion"]>().toEqualTypeOf<`${string}/v1` | undefined>();
    expectTypeOf<CustomResourceOf<Definition, "v1alpha1">["spec"]>().toEqualTypeOf<{ size: number }>();
  });

  it("types CrdType.Conditions() as metav1 conditions, which setCondition takes and returns", () => {
    const conditions = CrdType.Conditions();
    expectTypeOf<Static<typeof conditions>>().toEqualTypeOf<metaV1.Condition[]>();
  });

  it("types kube.custom(definition) by the storage version unless another is named", () => {
    expectTypeOf<ReturnType<Kube["custom"]>>().not.toBeNever();
    type Client = DefinedResourceClient<Widget>;
    expectTypeOf<Awaited<ReturnType<Client["get"]>>["spec"]["size"]>().toEqualTypeOf<number>();
  });
});
