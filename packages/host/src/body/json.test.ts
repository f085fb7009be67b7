import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJson, parseJsonObject, topLevelCount } from "./json.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("JSON bodies", () => {
  it("counts a batch's elements in one pass, stopping past the bound, strings and nesting aside", () => {
    expect(topLevelCount(bytes('{"a":[1,2,3]}'), 16)).toBe(1);
    expect(topLevelCount(bytes(' [{"a":","},[1,2],"x,y"]'), 16)).toBe(3);
    expect(topLevelCount(bytes(`[${"{},".repeat(500_000)}{}]`), 16)).toBe(17);
  });

  it("refuses nesting past the bound before parsing, and malformed text as invalid_json", () => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => parseJson(bytes(deep))).toThrow(/nest/);
    expect(parseJson(bytes(`${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`))).toBeInstanceOf(
      Array,
    );
    expect(() => parseJson(bytes("{nope"))).toThrow(expect.objectContaining({ code: "invalid_json" }));
    expect(() => parseJson(new Uint8Array([0x22, 0xff, 0x22]))).toThrow(
      expect.objectContaining({ code: "invalid_json" }),
    );
  });

  it("reads an object body; empty is {} and anything else is invalid_input", () => {
    expect(parseJsonObject(new Uint8Array(0))).toEqual({});
    expect(parseJsonObject(bytes('{"a":1}'))).toEqual({ a: 1 });
    expect(() => parseJsonObject(bytes("[1]"))).toThrow(/JSON object/);
  });
});
