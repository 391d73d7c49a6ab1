/**
 * What a delete handler receives when the informer knows an object is gone but missed its deletion
 * (it vanished during a disconnect and a relist no longer shows it): the key and the last state
 * the informer knew. The object may have changed after that state before it was deleted.
 */
export class DeletedFinalStateUnknown<T> {
  readonly key: string;
  /** The last state the informer had cached. */
  readonly obj: T;

  constructor(key: string, obj: T) {
    this.key = key;
    this.obj = obj;
  }
}

/** True for a {@link DeletedFinalStateUnknown} tombstone. */
export function isDeletedFinalStateUnknown<T>(
  value: T | DeletedFinalStateUnknown<T>,
): value is DeletedFinalStateUnknown<T> {
  return value instanceof DeletedFinalStateUnknown;
}

/** The object of a delete notification, unwrapping a tombstone. */
export function deletedObject<T>(value: T | DeletedFinalStateUnknown<T>): T {
  return value instanceof DeletedFinalStateUnknown ? value.obj : value;
}
