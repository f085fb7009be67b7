import * as v from "valibot";
import { uuid } from "./fields.js";

/** admin.deletePost: the listing to remove. */
export const adminDeletePostSchema = v.object({ postId: uuid });
export type AdminDeletePostInput = v.InferInput<typeof adminDeletePostSchema>;

/** admin.deleteUser: the account to remove with everything it owns. */
export const adminDeleteUserSchema = v.object({ userId: uuid });
export type AdminDeleteUserInput = v.InferInput<typeof adminDeleteUserSchema>;
