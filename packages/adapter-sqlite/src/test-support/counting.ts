import type { Database, Statement } from "better-sqlite3";

/** Which calls of a statement to count: its method, and the counter each call adds one to. */
export interface Counted<K extends string> {
  method: "get" | "run";
  key: K;
}

/**
 * `sqlite`, with the statements it prepares from here on counted where `pick` names them (by
 * their SQL text): each call of the named method adds one to `counts[key]`. For tests that hold
 * a runner to how many reads it makes.
 */
export function countingStatements<K extends string>(
  sqlite: Database,
  counts: Record<K, number>,
  pick: (sql: string) => Counted<K> | undefined,
): Database {
  const counted = (statement: Statement, { method, key }: Counted<K>) => {
    const call = statement[method].bind(statement);
    return Object.assign(statement, {
      [method]: (...args: unknown[]) => {
        counts[key]++;
        return call(...args);
      },
    });
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === "prepare") {
        return (text: string) => {
          const statement = target.prepare(text);
          const which = pick(text);
          return which === undefined ? statement : counted(statement, which);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
