/** Helpers of the pack-check programs: values whose types must not decay to `any`, and a runtime check. */

type IsAny<T> = 0 extends 1 & T ? true : false;

/** Compiles only when the argument's type is not `any` (a missing or broken declaration gives `any`). */
export function typed<T>(value: T, ..._notAny: IsAny<T> extends true ? [never] : []): T {
  return value;
}

export function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`pack check failed: ${what}`);
}
