/** A deadline whose clock can be stopped while someone else works (OCR for a parse job). */
export interface PausableDeadline {
  pause(): void;
  resume(): void;
  clear(): void;
}

/** Starts a clock of `ms`; `expire` runs once they have passed, pauses not counted. */
export function pausableDeadline(ms: number, expire: () => void): PausableDeadline {
  let remaining = ms;
  let armedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const resume = () => {
    clearTimeout(timer);
    armedAt = performance.now();
    timer = setTimeout(expire, Math.max(0, remaining));
  };
  resume();
  return {
    pause() {
      clearTimeout(timer);
      remaining -= performance.now() - armedAt;
    },
    resume,
    clear: () => clearTimeout(timer),
  };
}
