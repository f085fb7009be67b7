import type { OAuthGrant } from "@psm/core";
import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import { PostForm } from "../components/post-form.js";
import { formatDateTime } from "../format.js";
import type { PageContext } from "../render.js";

/**
 * `/account/apps`: the applications connected through OAuth, what each may do, and a button that
 * disconnects one (its tokens stop working at once).
 */
export const ConnectedAppsPage: FC<{ ctx: PageContext; grants: readonly OAuthGrant[] }> = ({
  ctx,
  grants,
}) => (
  <NarrowPage ctx={ctx} title="Connected applications" back={{ href: "/account", label: "Account" }}>
    <p class="lead">
      Applications you approved, such as AI assistants connected by this site's address. Disconnect one and it
      can no longer act for you.
    </p>
    {grants.length === 0 ? (
      <p class="empty">No application is connected.</p>
    ) : (
      <ul class="plain-list">
        {grants.map((grant) => (
          <li>
            <h2>{grant.clientName}</h2>
            <p>
              Connected{" "}
              <time datetime={grant.createdAt.toISOString()}>{formatDateTime(grant.createdAt)}</time>. May:{" "}
              {grant.scopes.length === 0 ? "read what is public" : grant.scopes.map((s) => <code>{s} </code>)}
            </p>
            <PostForm ctx={ctx} action={`/account/apps/${grant.id}/disconnect`}>
              <button type="submit" class="button button-danger">
                Disconnect {grant.clientName}
              </button>
            </PostForm>
          </li>
        ))}
      </ul>
    )}
  </NarrowPage>
);
