/**
 * Settles with `work`, or rejects with `error()` once `ms` have passed, calling `onTimeout` so
 * the caller can stop the abandoned work (destroy a document, terminate a worker).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  error: () => Error,
  onTimeout?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(error());
    }, ms);
  });
  work.catch(() => {}); // a rejection after the deadline has nobody left to tell
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
