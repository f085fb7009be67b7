import type { Profile, User } from "../../domain/user.js";

/** A user as a profile; the email only when the caller may see it. */
export function toProfile(user: User, showEmail: boolean): Profile {
  const profile: Profile = {
    id: user.id,
    displayName: user.displayName,
    isAdmin: user.isAdmin,
    accountType: user.accountType,
  };
  if (showEmail) profile.email = user.email;
  return profile;
}
