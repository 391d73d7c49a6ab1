/**
 * What big-list encoding keeps of each list item (list-encode.ts): its compact JSON and its
 * protobuf bytes, each a range of a slab shared with the items encoded with it. List items of
 * stored objects are made once per stored object and never change (handlers/list.ts), so a list
 * encodes only the items it has not shown before. One record per item holding offsets, rather
 * than a view object per encoding: 50,000 items kept 100,000 views (9 MiB of heap) before.
 */
export interface ItemBytes {
  /** The slab of the item's JSON: items joined by commas, each followed by one. */
  json: Buffer | undefined;
  jsonStart: number;
  jsonEnd: number;
  /** The slab of the item's protobuf field-2 entry (tag included): a chunk's list message. */
  protobuf: Uint8Array | undefined;
  protobufStart: number;
  protobufEnd: number;
  /** The list kind the protobuf bytes were encoded for: an item's message is its type. */
  protobufKind: string;
}

const items = new WeakMap<object, ItemBytes>();

export function cachedBytes(item: object): ItemBytes | undefined {
  return items.get(item);
}

/** The item's record, made empty on first use. */
export function bytesRecord(item: object): ItemBytes {
  let record = items.get(item);
  if (record === undefined) {
    record = {
      json: undefined,
      jsonStart: 0,
      jsonEnd: 0,
      protobuf: undefined,
      protobufStart: 0,
      protobufEnd: 0,
      protobufKind: "",
    };
    items.set(item, record);
  }
  return record;
}
