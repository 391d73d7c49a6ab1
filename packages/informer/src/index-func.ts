/** Index functions of a store: the type the store, the ready-made indexers and the options share. */

/** The values an object is indexed under (several, one, or none). Must be pure. */
export type IndexFunc<T> = (obj: T) => readonly string[];

export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;
