/**
 * The strict decoding errors of a built-in object's JSON text, in the order Go's strict decoder
 * (sigs.k8s.io/json, as kube-apiserver decodes a create or update body) reports them: document
 * order, each error once, at most 100. An unknown field is reported at its key and its value is
 * not looked into; a struct field is a duplicate when its name repeats, a map entry when its key
 * repeats; values Go decodes by hand (quantities, times, raw extensions: untyped or scalar here)
 * are not looked into either. Only needed when the body repeats keys: otherwise pruning the
 * parsed object finds the same unknown fields in the same order.
 */
import { fieldOf, itemOf, type TypeNode } from "@kubesdk/models";
import { JsonKeyScanner, joinField } from "../http/duplicate-fields.js";

/** Go's decoder stops collecting strict errors at this many. */
const MAX_STRICT_ERRORS = 100;

export function typedStrictErrors(text: string, node: TypeNode): string[] {
  const scanner = new TypedStrictScanner(text);
  return scanner.scan(node) ? scanner.errors : [];
}

class TypedStrictScanner extends JsonKeyScanner<TypeNode> {
  readonly errors: string[] = [];
  private readonly reported = new Set<string>();

  protected member(node: TypeNode, path: string, key: string, seen: Set<string>): TypeNode | undefined {
    if (node.kind !== "struct" && node.kind !== "map") return undefined;
    const child = fieldOf(node, key);
    const field = joinField(path, key);
    if (!child) {
      this.report(`unknown field "${field}"`);
      return undefined;
    }
    if (seen.has(key)) this.report(`duplicate field "${field}"`);
    seen.add(key);
    return child;
  }

  protected element(node: TypeNode): TypeNode | undefined {
    return node.kind === "list" ? itemOf(node) : undefined;
  }

  private report(error: string): void {
    if (this.errors.length >= MAX_STRICT_ERRORS || this.reported.has(error)) return;
    this.reported.add(error);
    this.errors.push(error);
  }
}
