/**
 * What the server sends back is checked, not trusted: a response of the wrong shape becomes a
 * ClientError UNEXPECTED_RESPONSE that names the fields that were wrong, instead of a TypeError
 * somewhere later.
 */
import { describeIssues } from "@kubesdk/transport/internal";
import { z } from "zod";
import { ClientError } from "../errors.js";

/** `value` parsed by `schema`, or a ClientError UNEXPECTED_RESPONSE: "`what` is not a `expected`: …". */
export function expectShape<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  expected: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ClientError(
    "UNEXPECTED_RESPONSE",
    `${what} is not ${expected}: ${describeIssues(parsed.error.issues)}`,
  );
}

// An array checked only for being one: items of a list are not walked (cheap on 50k-item lists).
const anyArray = z.custom<unknown[]>((v) => Array.isArray(v), { message: "expected an array" });

/** The envelope of a list response: `items` an array, `metadata.resourceVersion`/`continue` strings. */
const listEnvelope = z.looseObject({
  items: anyArray,
  metadata: z
    .looseObject({
      resourceVersion: z.string().optional(),
      continue: z.string().optional(),
      remainingItemCount: z.number().int().optional(),
    })
    .optional(),
});

/** Checks the envelope of a list response (not its items) and returns it unchanged. */
export function expectList<L>(body: unknown, what: string): L {
  expectShape(listEnvelope, body, what, "a list");
  return body as L;
}
