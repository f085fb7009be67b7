/**
 * Defers `make` to its first call and keeps the result. Statements are prepared
 * this way because preparing needs the tables, and a Storage is opened before
 * migrate() creates them; after the first call a statement is reused as is.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
