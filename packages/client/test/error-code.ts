import { ClientError } from "../src/index.js";

/** The ClientError code `fn` throws, or undefined when it returns; other errors propagate. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ClientError) return err.code;
    throw err;
  }
  return undefined;
}
