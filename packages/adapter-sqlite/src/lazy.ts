import { type Placeholder, sql } from "drizzle-orm";

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

/**
 * One value per shape, each made on first use: a statement prepared once for each combination of
 * a query's optional parts (a filter present or not, a direction) rather than one per call.
 */
export function lazyPerShape<A extends readonly (string | boolean)[], T>(
  make: (...shape: A) => T,
): (...shape: A) => T {
  const made = new Map<string, T>();
  return (...shape) => {
    const key = shape.join(":");
    let value = made.get(key);
    if (value === undefined) {
      value = make(...shape);
      made.set(key, value);
    }
    return value;
  };
}

/**
 * A query builder's limit bound to the placeholder `name`, written `+?` after `limit`: SQLite 3.54
 * plans with the value bound to a bare parameter there, so each new binding would compile the
 * prepared statement again (sql-limits.test.ts). Drizzle's type takes only a number or a
 * placeholder; its dialect writes any SQL it is given after `limit`.
 */
export function limitPlaceholder(name: string): Placeholder {
  return sql`+${sql.placeholder(name)}` as unknown as Placeholder;
}
