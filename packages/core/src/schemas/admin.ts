import * as v from "valibot";
import { uuid } from "./fields.js";

/** DELETE /api/admin/posts body. */
export const adminDeletePostSchema = v.object({ post_id: uuid });
/** DELETE /api/admin/users body. */
export const adminDeleteUserSchema = v.object({ user_id: uuid });
