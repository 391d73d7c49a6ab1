/**
 * A suite's state is made in `beforeAll`, after the test file has taken its handle. The view reads
 * each field of the current state on access and fails clearly when `beforeAll` has not run.
 */
export function suiteView<S extends object>(read: () => S | undefined): Readonly<S> {
  return new Proxy({} as S, {
    get(_target, key) {
      const state = read();
      if (state === undefined) throw new Error("the suite's beforeAll has not run");
      return state[key as keyof S];
    },
  });
}
