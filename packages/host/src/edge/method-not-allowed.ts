import type { RouterRoute } from "hono/types";

interface PathMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * Hono has no 405: this derives, from the registered routes, which methods a
 * path answers to. Middleware entries (method ALL) do not count.
 */
export function methodIndex(routes: () => readonly RouterRoute[]): (path: string) => string[] {
  let index: PathMethods[] | undefined;
  return (path) => {
    // Built on first use, once every route is registered.
    index ??= build(routes());
    const methods = new Set<string>();
    for (const entry of index) {
      if (entry.pattern.test(path)) for (const m of entry.methods) methods.add(m);
    }
    if (methods.size === 0) return [];
    if (methods.has("GET")) methods.add("HEAD");
    methods.add("OPTIONS");
    return [...methods].sort();
  };
}

function build(routes: readonly RouterRoute[]): PathMethods[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    if (route.method === "ALL") continue;
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ pattern: toRegExp(path), methods }));
}

function toRegExp(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}
