import { describe, expect, it } from "vitest";
import { MvccStore, type StoreEvent } from "../src/storage/mvcc.js";
import { FRAME_CACHE_BYTES, WatchHub } from "../src/watch/watch-hub.js";

/** The hub's frame cache, read the way serve-watch.ts reads it: one key per representation. */
function setup() {
  const store = new MvccStore();
  const events: StoreEvent[] = [];
  store.subscribe((e) => events.push(e));
  const hub = new WatchHub(store);
  let encodes = 0;
  const encode = (e: StoreEvent, size: number) => {
    encodes++;
    return Buffer.alloc(size, e.rev % 251);
  };
  return { store, events, hub, encodes: () => encodes, encode };
}

describe("WatchHub frames", () => {
  it("encodes an event once per representation, however often it is replayed", () => {
    const { store, events, hub, encodes, encode } = setup();
    for (let i = 0; i < 50; i++) store.create("cm", `ns/cm-${i}`, { metadata: { name: `cm-${i}` } });
    // Fifty watches replaying the same history, one after another, in two representations.
    for (let w = 0; w < 50; w++) {
      for (const e of events) {
        expect(hub.frame(e, "json", encode, 100)[0]).toBe(e.rev % 251);
        hub.frame(e, "protobuf", encode, 80);
      }
    }
    expect(encodes()).toBe(100);
    expect(hub.encodedFrames).toBe(100);
  });

  it("holds no more than its budget: the oldest events' frames go first", () => {
    const { store, events, hub, encodes, encode } = setup();
    const frameSize = 1024 * 1024;
    const count = Math.ceil((2 * FRAME_CACHE_BYTES) / frameSize);
    for (let i = 0; i < count; i++) store.create("cm", `ns/cm-${i}`, { metadata: { name: `cm-${i}` } });
    for (const e of events) {
      hub.frame(e, "json", encode, frameSize);
      expect(hub.cachedFrameBytes).toBeLessThanOrEqual(FRAME_CACHE_BYTES);
    }
    const last = events.at(-1) as StoreEvent;
    const first = events[0] as StoreEvent;
    hub.frame(last, "json", encode, frameSize);
    expect(encodes()).toBe(count);
    hub.frame(first, "json", encode, frameSize);
    expect(encodes()).toBe(count + 1);
  });

  it("keeps evicting oldest first over many evictions", () => {
    const { store, events, hub, encodes, encode } = setup();
    const frameSize = FRAME_CACHE_BYTES / 16;
    for (let i = 0; i < 3000; i++) store.create("cm", `ns/cm-${i}`, { metadata: { name: `cm-${i}` } });
    for (const e of events) {
      hub.frame(e, "json", encode, frameSize);
      expect(hub.cachedFrameBytes).toBeLessThanOrEqual(FRAME_CACHE_BYTES);
    }
    for (const e of events.slice(-16)) hub.frame(e, "json", encode, frameSize);
    expect(encodes()).toBe(3000);
    hub.frame(events.at(-17) as StoreEvent, "json", encode, frameSize);
    expect(encodes()).toBe(3001);
  });

  it("keeps the current event's frames when it is the oldest, and drops them first after", () => {
    const { store, events, hub, encodes, encode } = setup();
    const frameSize = FRAME_CACHE_BYTES / 4;
    for (let i = 0; i < 6; i++) store.create("cm", `ns/cm-${i}`, { metadata: { name: `cm-${i}` } });
    const [a, b, c, d, e, f] = events as [
      StoreEvent,
      StoreEvent,
      StoreEvent,
      StoreEvent,
      StoreEvent,
      StoreEvent,
    ];
    hub.frame(a, "json", encode, 1);
    for (const x of [b, c, d]) hub.frame(x, "json", encode, frameSize);
    // a, the oldest, in a second representation: over budget, so b goes, not a.
    hub.frame(a, "protobuf", encode, frameSize);
    expect(encodes()).toBe(5);
    for (const x of [a, c, d]) hub.frame(x, "json", encode, frameSize);
    hub.frame(a, "protobuf", encode, frameSize);
    expect(encodes()).toBe(5);
    // The next new event drops a (still the oldest), then c as needed.
    hub.frame(e, "json", encode, frameSize);
    hub.frame(f, "json", encode, frameSize);
    expect(hub.cachedFrameBytes).toBeLessThanOrEqual(FRAME_CACHE_BYTES);
    hub.frame(d, "json", encode, frameSize);
    expect(encodes()).toBe(7);
    hub.frame(a, "json", encode, 1);
    expect(encodes()).toBe(8);
  });

  it("forgets everything on close", () => {
    const { store, events, hub, encode } = setup();
    store.create("cm", "ns/a", { metadata: { name: "a" } });
    hub.frame(events[0] as StoreEvent, "json", encode, 10);
    hub.close();
    expect(hub.cachedFrameBytes).toBe(0);
  });
});
