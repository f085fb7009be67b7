import type { Deps } from "../../deps.js";
import { type DisplayNamesInput, displayNamesSchema } from "../../schemas/profile.js";
import { validate } from "../../support/validate.js";

/**
 * The display names of the given users, for pages that show who wrote a
 * listing or a message: public, as the profile list shows them to anyone.
 * Ids of users that do not exist (deleted ones) are absent from the map.
 */
export async function displayNames(
  deps: Pick<Deps, "repos">,
  input: DisplayNamesInput,
): Promise<Map<string, string>> {
  const { userIds } = validate(displayNamesSchema, input);
  const unique = [...new Set(userIds.map((id) => id.toLowerCase()))];
  const users = await Promise.all(unique.map((id) => deps.repos.users.findById(id)));
  const names = new Map<string, string>();
  for (const user of users) if (user) names.set(user.id, user.displayName);
  return names;
}
