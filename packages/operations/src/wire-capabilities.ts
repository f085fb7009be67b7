import { SCOPES } from "@psm/core";
import * as v from "valibot";
import { about, named } from "./wire-fields.js";

/** GET /api/capabilities (core's CapabilitiesDocument). */
export const CapabilitiesSchema = named(
  "Capabilities",
  v.object({
    name: about("The service's name.", v.string()),
    version: about(
      "The version of the interface served (semver), as in the OpenAPI document's info.",
      v.string(),
    ),
    security_mode: about(
      "strict (default: the documented gaps closed) or legacy (interface 1.0.2's open endpoints).",
      v.picklist(["strict", "legacy"]),
    ),
    currency: about(
      "The ISO 4217 code every listing price is in (the server's CURRENCY): a price of 150 with price_unit hour reads USD 150 / hour.",
      v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    ),
    capabilities: about(
      "Every operation of the JSON API, in the registry's order.",
      v.array(
        v.object({
          name: about("The operation's name; also its OpenAPI operationId.", v.string()),
          method: about("The HTTP method.", v.picklist(["GET", "POST", "PUT", "PATCH", "DELETE"])),
          path: about("The path, with {param} placeholders.", v.string()),
          auth: about(
            "Who may call it in this mode: public, key-or-jwt (X-API-Key or Bearer), jwt (Bearer only) or admin (an admin's Bearer).",
            v.picklist(["public", "key-or-jwt", "jwt", "admin"]),
          ),
          scope: v.optional(
            about(
              "The scope a key limited to scopes needs to call it; absent when none is needed.",
              v.picklist(SCOPES),
            ),
          ),
          description: about("What it does.", v.string()),
        }),
      ),
    ),
    scopes: about(
      "The scopes a key may be limited to (POST /api/keys `scopes`), each with what it allows.",
      v.array(
        v.object({
          name: about("The scope's name, as POST /api/keys `scopes` takes it.", v.picklist(SCOPES)),
          description: about("What it allows.", v.string()),
        }),
      ),
    ),
    categories: about(
      "The ten service categories.",
      v.array(
        v.object({
          value: about("The value listings carry and filters take.", v.string()),
          label: about("A name for people.", v.string()),
          display_slug: about("A short slug for URLs and menus.", v.string()),
        }),
      ),
    ),
    authentication: about(
      "The accepted credentials.",
      v.array(
        v.object({
          type: about("api_key or jwt.", v.string()),
          header: about("The request header that carries it.", v.string()),
          format: about("What the header's value looks like.", v.string()),
          how_obtained: about("How to get one, and what it allows.", v.string()),
        }),
      ),
    ),
    known_gaps: about(
      "Security gaps of interface 1.0.2 open in this mode, in words; empty in strict mode.",
      v.array(v.string()),
    ),
    changes_from_1_0_2: about("How this server differs from interface 1.0.2, in words.", v.array(v.string())),
    limits: about(
      "Limits in force by name: numbers are counts or bytes as the name says (json_body_max_bytes, listing_page_max, slots_business); strings are durations in words (jwt_lifetime).",
      v.record(v.string(), v.union([v.string(), v.number()])),
    ),
  }),
);
