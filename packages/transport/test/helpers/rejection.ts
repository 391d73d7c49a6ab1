import { expect } from "vitest";

/** Resolves with the rejection of `p` (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

/** Resolves with the rejection of `p`, asserting its class. */
export async function rejectsWith<T>(
  p: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  const err = await rejection(p);
  expect(err).toBeInstanceOf(type);
  return err as T;
}
