/**
 * JSON merge patch (RFC 7386). Hand-written: it is ten lines, and the libraries
 * that offer it either mutate their input or pull in far more than this.
 * Member names are looked up as own members only ("constructor" is not the
 * inherited function) and set as members ("__proto__" is not the prototype).
 */
import { setMember } from "@kubesdk/models/internal";

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const base =
    typeof target === "object" && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : ({} as Record<string, unknown>);
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete base[k];
    else setMember(base, k, applyMergePatch(Object.hasOwn(base, k) ? base[k] : undefined, v));
  }
  return base;
}
