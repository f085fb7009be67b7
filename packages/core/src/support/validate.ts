import * as v from "valibot";
import { invalidField, MarketplaceError } from "../errors.js";

/**
 * Parses `input` with `schema`, or throws `invalid_input` naming the offending
 * field ("title: must not be empty", `field` = "title"). This is the one place
 * a command is validated: the use case calls it, whoever the caller is.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  throw describeIssue(result.issues[0]);
}

function describeIssue(issue: v.BaseIssue<unknown> | undefined): MarketplaceError {
  if (!issue) return new MarketplaceError("invalid_input", "Invalid input");
  const path = v.getDotPath(issue);
  if (issue.kind === "schema" && issue.input === undefined && path) return invalidField(path, "is required");
  if (!path) {
    const message = issue.expected === "Object" ? "Body must be a JSON object" : issue.message;
    return new MarketplaceError("invalid_input", message);
  }
  return invalidField(path, issue.message);
}
