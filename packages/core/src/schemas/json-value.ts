/**
 * The walk behind `structuredData`: one loop over an explicit stack, so a
 * value nested thousands of levels deep costs a few steps and no call stack,
 * and the work is linear in the input (it stops at the first problem, and a
 * value with more nodes or more text than the byte bound allows is refused
 * before it is serialised).
 */

import { isStorableText, STORABLE_TEXT_MESSAGE } from "./storable-text.js";

/** The bounds the walk enforces. */
export interface JsonObjectLimits {
  /** Bytes of the UTF-8 JSON text. */
  maxBytes: number;
  /** Levels of nesting; the object itself is level 1. */
  maxDepth: number;
}

interface Entry {
  value: unknown;
  /** Containers from the root down to this value, itself included when it is one. */
  depth: number;
  parent: Entry | null;
  key: string | number;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Where an entry sits, as `.a[2].b` (long keys shortened): built only for a message. */
function pathOf(entry: Entry): string {
  const parts: string[] = [];
  for (let at: Entry | null = entry; at?.parent; at = at.parent) {
    if (typeof at.key === "number") parts.push(`[${at.key}]`);
    else {
      const key = JSON.stringify(at.key.length > 40 ? `${at.key.slice(0, 40)}…` : at.key);
      parts.push(/^"[A-Za-z_$][\w$]*"$/.test(key) ? `.${key.slice(1, -1)}` : `[${key}]`);
    }
  }
  return parts.reverse().join("");
}

/**
 * Why `root` cannot be stored exactly as a JSON object within `limits`, or
 * null when it can: too deep, too large, a value that is not JSON (a function,
 * undefined, a Date, a non-finite number), or a string, key or value, that
 * carries a NUL or a lone surrogate (the message says where).
 */
export function structuredDataProblem(root: object, limits: JsonObjectLimits): string | null {
  const tooLarge = `must be at most ${limits.maxBytes / 1024} KiB`;
  const stack: Entry[] = [{ value: root, depth: 1, parent: null, key: "" }];
  // Every node adds at least one byte to the JSON text and every UTF-16 unit at
  // least one UTF-8 byte, so past either bound the text is too large anyway.
  let nodes = 0;
  let units = 0;
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (++nodes > limits.maxBytes) return tooLarge;
    const { value } = entry;
    if (typeof value === "string") {
      if (!isStorableText(value)) return textProblem(entry);
      units += value.length;
      if (units > limits.maxBytes) return tooLarge;
      continue;
    }
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return `must contain only finite numbers (at ${pathOf(entry)})`;
      continue;
    }
    if (typeof value === "boolean" || value === null) continue;
    if (typeof value !== "object") return notJson(entry);
    if (entry.depth > limits.maxDepth) return `must be at most ${limits.maxDepth} levels deep`;
    const depth = entry.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        if (!(i in value)) return notJson({ value: undefined, depth, parent: entry, key: i });
        stack.push({ value: value[i], depth, parent: entry, key: i });
      }
      continue;
    }
    if (!isPlainObject(value)) return notJson(entry);
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child: Entry = { value: value[key], depth, parent: entry, key };
      if (!isStorableText(key)) return textProblem(child, "a key");
      units += key.length;
      if (units > limits.maxBytes) return tooLarge;
      stack.push(child);
    }
  }
  // Bounded now (depth and node count), so the exact size is cheap and safe to take.
  const bytes = new TextEncoder().encode(JSON.stringify(root)).byteLength;
  return bytes > limits.maxBytes ? tooLarge : null;
}

function textProblem(entry: Entry, what = "a string"): string {
  return `${STORABLE_TEXT_MESSAGE} (${what} at ${pathOf(entry) || "the top"})`;
}

function notJson(entry: Entry): string {
  return `must contain only JSON values (at ${pathOf(entry)})`;
}
