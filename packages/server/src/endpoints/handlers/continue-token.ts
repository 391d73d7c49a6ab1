/**
 * ContinueToken: the opaque pagination cursor. Encoded like upstream's so
 * clients that peek (they should not) see the same thing: base64url without
 * padding of {"v":"meta.k8s.io/v1","rv":N,"start":"<key relative to the list prefix>"}.
 */
import { errors } from "../../api/status.js";

export interface ContinueToken {
  /** Revision the paginated list reads at; -1 means "continue from the latest state". */
  readonly rv: number;
  /** First key (relative to the list's prefix) the next page starts at. */
  readonly start: string;
}

export function encodeContinue(token: ContinueToken): string {
  const json = JSON.stringify({ v: "meta.k8s.io/v1", rv: token.rv, start: token.start });
  return Buffer.from(json, "utf8").toString("base64url");
}

export function decodeContinue(value: string): ContinueToken {
  const invalid = (why: string) =>
    errors.badRequest(`invalid continue token: continue key is not valid${why}`);
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw invalid(": illegal base64 data");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    throw invalid(": not a continue token");
  }
  if (typeof parsed !== "object" || parsed === null) throw invalid(": not a continue token");
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== "meta.k8s.io/v1") throw invalid(": server does not recognize this encoded version");
  if (typeof rv !== "number" || !Number.isInteger(rv) || rv === 0)
    throw invalid(": incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  if (typeof start !== "string" || start === "")
    throw invalid(": encoded start key empty (version meta.k8s.io/v1)");
  // Keys never climb above the list's prefix (upstream cleans the path for the same reason).
  if (start.split("/").some((seg) => seg === ".." || seg === ".")) throw invalid(`: ${start}`);
  return { rv, start };
}
