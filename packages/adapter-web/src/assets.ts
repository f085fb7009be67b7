import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Hono } from "hono";
import type { WebEnv } from "./env.js";

/** One file of the site's assets, as served. */
interface Asset {
  /** The URL pages link to: the path and a digest of the content, so it can be cached for good. */
  url: string;
  body: string;
  type: string;
}

type AssetName = "css" | "js" | "icon";

const FILES: Record<AssetName, { file: string; path: string; type: string }> = {
  css: { file: "site.css", path: "/assets/site.css", type: "text/css; charset=utf-8" },
  js: { file: "site.js", path: "/assets/site.js", type: "text/javascript; charset=utf-8" },
  icon: { file: "icon.svg", path: "/assets/icon.svg", type: "image/svg+xml" },
};

let loaded: Record<AssetName, Asset> | undefined;

/**
 * The stylesheet and the small script, read once from the package's
 * `assets/` folder (beside both src/ and dist/, so it is found either way).
 */
function assets(): Record<AssetName, Asset> {
  loaded ??= {
    css: load("css"),
    js: load("js"),
    icon: load("icon"),
  };
  return loaded;
}

function load(name: AssetName): Asset {
  const { file, path, type } = FILES[name];
  const body = readFileSync(new URL(`../assets/${file}`, import.meta.url), "utf8");
  const version = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { url: `${path}?v=${version}`, body, type };
}

/** The URL a page links the asset with. */
export function assetUrl(name: AssetName): string {
  return assets()[name].url;
}

/**
 * GET /assets/site.css, /assets/site.js and /assets/icon.svg: public, and
 * cached for a year (their URL changes with them). /favicon.ico, which
 * browsers ask for on their own, answers the same icon.
 */
export function assetRoutes(): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.get("/favicon.ico", (c) => {
    c.header("Content-Type", FILES.icon.type);
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(assets().icon.body);
  });
  for (const name of ["css", "js", "icon"] as const) {
    app.get(FILES[name].path, (c) => {
      const asset = assets()[name];
      c.header("Content-Type", asset.type);
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      return c.body(asset.body);
    });
  }
  return app;
}
