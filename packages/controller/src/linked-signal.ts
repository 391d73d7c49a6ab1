/**
 * A signal aborted when any of `sources` is (with that source's reason), unhooked from them by
 * `dispose()`. Written by hand rather than `AbortSignal.any` because every reconcile makes one from
 * long-lived sources (the controller's run, the leadership term): `any` keeps each dependent
 * registered on its sources until the collector gets to it, this removes the listeners as soon as
 * the reconcile is over.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

export function linkedSignal(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const aborted = sources.find((s) => s.aborted);
  if (aborted !== undefined) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const unhook: (() => void)[] = [];
  const dispose = () => {
    for (const u of unhook.splice(0)) u();
  };
  for (const source of sources) {
    const onAbort = () => {
      dispose();
      controller.abort(source.reason);
    };
    source.addEventListener("abort", onAbort, { once: true });
    unhook.push(() => source.removeEventListener("abort", onAbort));
  }
  return { signal: controller.signal, dispose };
}
