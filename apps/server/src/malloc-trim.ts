/** glibc's `malloc_trim(0)`: true when it handed pages back to the system. */
export type MallocTrim = () => boolean;

/**
 * Loads glibc's malloc_trim through koffi (an FFI with prebuilt binaries; nothing is compiled at
 * install). glibc keeps what native code frees (SQLite, the HTTP parser, V8's off-heap buffers) in
 * place inside its heaps; only malloc_trim returns the free pages between live blocks. A minute
 * after the benchmark's load it took the server 145 → 112 MiB, where V8's own collection had
 * already run (docs/performance.md). Undefined where there is no glibc (musl, macOS, Windows) or
 * the binding does not load: the server then runs as before, without it.
 */
export async function loadMallocTrim(): Promise<MallocTrim | undefined> {
  if (process.platform !== "linux") return undefined;
  try {
    const { default: koffi } = await import("koffi");
    const trim = koffi.load("libc.so.6").func("int malloc_trim(size_t pad)");
    return () => trim(0) === 1;
  } catch {
    return undefined;
  }
}

/**
 * A trim that loads the binding at its first call, so that a server which never sees traffic
 * never pays for it (about 15 ms and 6 MiB) and the first requests never wait on it.
 */
export function trimWhenLoaded(load: () => Promise<MallocTrim | undefined> = loadMallocTrim): () => void {
  let loaded: Promise<MallocTrim | undefined> | undefined;
  return () => {
    loaded ??= load();
    void loaded.then((trim) => trim?.());
  };
}
