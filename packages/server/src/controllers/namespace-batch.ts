/**
 * Namespaces waiting for a controller's next look, batched to the next turn of the event loop: the
 * write that caused the look has committed (and been answered) first, and many events about one
 * namespace cost one look.
 */
export class NamespaceBatch {
  private readonly pending = new Set<string>();
  private scheduled: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(private readonly look: (namespace: string) => void) {}

  add(namespace: string): void {
    if (this.closed) return;
    this.pending.add(namespace);
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      const namespaces = [...this.pending];
      this.pending.clear();
      for (const ns of namespaces) if (!this.closed) this.look(ns);
    });
  }

  close(): void {
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
  }
}
