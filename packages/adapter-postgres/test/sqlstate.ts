/** The SQLSTATE somewhere in the error's cause chain (a MarketplaceError's own `code` is not one). */
export function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  while (typeof current === "object" && current !== null) {
    const code: unknown = Reflect.get(current, "code");
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = Reflect.get(current, "cause");
  }
  return undefined;
}
