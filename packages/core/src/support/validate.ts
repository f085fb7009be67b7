import * as v from "valibot";
import { type FieldIssue, MarketplaceError } from "../errors.js";

/**
 * The most field problems one error lists. Input is hostile (ten thousand bad
 * image links make ten thousand issues) and a form has a dozen fields.
 */
export const MAX_ISSUES = 50;

/** One valibot issue in core's words: a field problem, or (no field) a problem with the whole input. */
interface Described {
  field: string | undefined;
  message: string;
}

/**
 * Parses `input` with `schema`, or throws `invalid_input` listing every
 * field's problem in `issues` (see fieldIssues), with `message` and `field` those
 * of the first ("title: must not be empty", `field` = "title"). This is the
 * one place a command is validated: the use case calls it, whoever the caller is.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  throw invalidInput(result.issues.map(describeIssue));
}

/**
 * The field problems `validate` would throw for `input`, without running anything: for a form
 * that refuses for a reason of its own (a mistyped confirmation, which core never sees) and
 * still shows every other problem at once. Empty when the input is valid.
 */
export function inputIssues(schema: v.GenericSchema, input: unknown): readonly FieldIssue[] {
  const result = v.safeParse(schema, input ?? {});
  return result.success ? [] : fieldIssues(result.issues.map(describeIssue));
}

function invalidInput(described: readonly Described[]): MarketplaceError {
  const first = described[0];
  if (!first) return new MarketplaceError("invalid_input", "Invalid input");
  return new MarketplaceError("invalid_input", first.message, {
    field: first.field,
    issues: fieldIssues(described),
  });
}

/**
 * The first problem of each field, at most MAX_ISSUES of them. A pipe goes on checking after a
 * failure, so a field's later problems mostly repeat its first ("must be URLs", then "must be
 * http(s) URLs"); the first is what to fix.
 */
function fieldIssues(described: readonly Described[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  for (const { field, message } of described) {
    if (field === undefined || seen.has(field)) continue;
    seen.add(field);
    issues.push({ field, message });
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}

function describeIssue(issue: v.BaseIssue<unknown>): Described {
  const path = v.getDotPath(issue);
  if (!path) {
    const message = issue.expected === "Object" ? "Body must be a JSON object" : issue.message;
    return { field: undefined, message };
  }
  const missing = issue.kind === "schema" && issue.input === undefined;
  return { field: path, message: `${path}: ${missing ? "is required" : issue.message}` };
}
