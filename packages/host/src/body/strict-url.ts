import { fields, MarketplaceError } from "@psm/core";
import type { Context } from "hono";
import { routePath } from "hono/route";
import { decodeStrict, strictPairs } from "./form.js";

/**
 * Every query parameter and every path parameter of the request obeys core's text rule
 * (decisions.md, "Strings"), whatever route and whatever surface it reaches: 400 `invalid_input`
 * naming it. Read from the URL as sent, since the decoded values Hono hands on keep a broken
 * escape as it is. Called where the route is known, so a path parameter is named after it.
 */
export function assertStorableUrl(c: Context): void {
  const url = c.req.url;
  // Without an escape every parameter is a piece of the URL cut at ASCII delimiters (`+` read as
  // a space): storable when the URL is, so most requests need no decoding at all.
  if (!url.includes("%") && fields.isStorableText(url)) return;
  const queryAt = url.indexOf("?");
  const hashAt = url.indexOf("#");
  const pathEnd = queryAt >= 0 ? queryAt : hashAt >= 0 ? hashAt : url.length;
  if (queryAt >= 0) strictPairs(url.slice(queryAt + 1, hashAt > queryAt ? hashAt : undefined));
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart < 0 || pathStart > pathEnd) return;
  const pattern = routePath(c).split("/");
  url
    .slice(pathStart, pathEnd)
    .split("/")
    .forEach((segment, i) => {
      const decoded = decodeStrict(segment, false);
      if (decoded !== null && fields.isStorableText(decoded)) return;
      // Named after its parameter (`:id`), or "path" when the segment is not one.
      const param = /^:(\w+)/.exec(pattern[i] ?? "")?.[1] ?? "path";
      throw new MarketplaceError(
        "invalid_input",
        `${param}: ${decoded === null ? "is not valid UTF-8" : fields.STORABLE_TEXT_MESSAGE}`,
      );
    });
}
