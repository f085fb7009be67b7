import * as v from "valibot";
import { MarketplaceError } from "../errors.js";

/**
 * Parses `input` with `schema`, or throws `invalid_input` whose message names
 * the offending field ("title: must not be empty").
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  throw new MarketplaceError("invalid_input", describeIssue(result.issues[0]));
}

function describeIssue(issue: v.BaseIssue<unknown> | undefined): string {
  if (!issue) return "Invalid input";
  const path = v.getDotPath(issue);
  if (issue.kind === "schema" && issue.input === undefined && path) return `${path}: is required`;
  if (!path) return issue.expected === "Object" ? "Body must be a JSON object" : issue.message;
  return `${path}: ${issue.message}`;
}
