import { isIP } from "node:net";

// The shapes of single values the configuration accepts, apart from config.ts's reading of them.

/** A function that throws ConfigError naming the variable (config.ts's `fail`). */
export type Fail = (name: string, why: string) => never;

/** An RFC 1123 host name; an all-numeric last label is refused, as the resolver would read it as an address ("0", "127.1"). */
export function isHostName(value: string): boolean {
  const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
  const labels = value.replace(/\.$/, "").split(".");
  return (
    value.length <= 253 && labels.every((part) => label.test(part)) && !/^\d+$/.test(labels.at(-1) ?? "")
  );
}

/** 0.0.0.0 or ::, in any spelling: every address of the machine, none of which it names. */
export function isWildcard(host: string): boolean {
  if (isIP(host) === 4) return host === "0.0.0.0";
  return isIP(host) === 6 && new URL(`http://[${host}]`).hostname === "[::]";
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    /^https?:$/.test(url.protocol) &&
    url.hostname !== "" &&
    url.search === "" &&
    url.hash === "" &&
    !/[?#]/.test(value)
  );
}

/**
 * `*` alone, or origins as browsers send them in the Origin header:
 * `scheme://host[:port]`, with no path, not even a trailing slash (an Origin
 * never has one, so such an entry would match nothing). http(s) origins are
 * normalised as browsers send them: lower-case host, default port dropped.
 */
export function parseCorsOrigins(entries: string[], fail: Fail): string[] | "*" {
  if (entries.length === 0 || (entries.length === 1 && entries[0] === "*")) return "*";
  return entries.map((entry) => {
    if (entry === "*") fail("CORS_ORIGINS", "must be * alone or a comma-separated list of origins, not both");
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)$/i.exec(entry);
    if (!m || !URL.canParse(entry)) {
      fail(
        "CORS_ORIGINS",
        `must be * or origins like https://app.example.com[:port], without path or trailing slash (got "${entry}")`,
      );
    }
    const url = new URL(entry);
    return /^https?:$/.test(url.protocol) ? url.origin : entry;
  });
}

/** An ISO 4217 code this runtime knows (so Intl can format it): USD, EUR, GBP... */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf("currency").includes(code);
}
