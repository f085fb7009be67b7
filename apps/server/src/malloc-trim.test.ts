import koffi from "koffi";
import { describe, expect, it, vi } from "vitest";
import { loadMallocTrim, trimWhenLoaded } from "./malloc-trim.js";

const MiB = 2 ** 20;

describe("loadMallocTrim", () => {
  it("hands back to the system the pages glibc keeps after native code frees them", async () => {
    const trim = await loadMallocTrim();
    // Linux with glibc (this project's image and CI); musl or macOS load nothing, by design.
    expect(trim).toBeTypeOf("function");
    if (!trim) return;
    // Native blocks as SQLite or the HTTP parser allocate them, below the mmap threshold, touched,
    // then every other one freed: holes between live blocks, which glibc keeps in place.
    const libc = koffi.load("libc.so.6");
    const malloc = libc.func("void *malloc(size_t size)");
    const memset = libc.func("void *memset(void *s, int c, size_t n)");
    const free = libc.func("void free(void *p)");
    const blocks = Array.from({ length: 4096 }, () => {
      const block = malloc(16 * 1024);
      memset(block, 1, 16 * 1024);
      return block;
    });
    const freeEvery = (first: number) => {
      for (let i = first; i < blocks.length; i += 2) free(blocks[i]);
    };
    const full = process.memoryUsage().rss;
    freeEvery(0);
    const held = process.memoryUsage().rss;

    expect(trim()).toBe(true);
    const after = process.memoryUsage().rss;
    freeEvery(1);

    // free() alone hands back nothing of it (measured: not a page)...
    expect((full - held) / MiB).toBeLessThan(4);
    // ...malloc_trim the whole pages inside each hole: about 24 of the 32 MiB.
    expect((held - after) / MiB).toBeGreaterThan(20);
  });
});

describe("trimWhenLoaded", () => {
  it("loads the binding at the first trim only, then trims at every call", async () => {
    const trim = vi.fn(() => true);
    const load = vi.fn(async () => trim);
    const trimming = trimWhenLoaded(load);
    expect(load).not.toHaveBeenCalled(); // a server never idle after traffic never loads it

    trimming();
    trimming();
    await vi.waitFor(() => expect(trim).toHaveBeenCalledTimes(2));
    trimming();
    await vi.waitFor(() => expect(trim).toHaveBeenCalledTimes(3));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("does nothing where the binding does not load", async () => {
    const load = vi.fn(async () => undefined);
    const trimming = trimWhenLoaded(load);
    trimming();
    trimming();
    await load.mock.results[0]?.value;
    expect(load).toHaveBeenCalledTimes(1);
  });
});
