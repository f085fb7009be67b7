import { readFile } from "node:fs/promises";

/** A process the watch looks at, and how to end its job. */
export interface Watched {
  pid: number | null;
  /** Ends the running job (null when idle); the watch calls it with the error to answer. */
  kill: ((error: Error) => void) | null;
}

/**
 * A field of /proc/PID/status in bytes (`VmRSS`: resident now; `VmHWM`: the peak), or null
 * where there is no /proc (not Linux) or the process is gone.
 */
export async function residentBytes(pid: number, field: "VmRSS" | "VmHWM"): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "latin1").catch(() => null);
  const kb = status?.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1];
  return kb === undefined ? null : Number(kb) * 1024;
}

/**
 * Every `everyMs`, reads the resident memory of each busy document process from /proc (the
 * kernel answers, however busy the process is) and ends the job of one that passes
 * `limitBytes`: its JS heap, the buffers pdf.js and zlib fill, and tesseract's memory together.
 * `--max-old-space-size` bounds only the heap. Where there is no /proc the heap limit is the
 * only memory bound. Returns a function that stops the watch.
 */
export function watchMemory(
  watched: readonly Watched[],
  limitBytes: number,
  tooMuch: () => Error,
  everyMs: number,
): () => void {
  const timer = setInterval(() => {
    for (const slot of watched) {
      const { pid, kill } = slot;
      if (pid === null || kill === null) continue;
      void residentBytes(pid, "VmRSS").then((bytes) => {
        // Still the same job: a late answer must not end the next one.
        if (bytes !== null && slot.kill === kill && bytes > limitBytes) kill(tooMuch());
      });
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
