import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import type { PageContext } from "../render.js";

/**
 * `/verify-email`: the question the sign-up mail asks, again, and the one button that spends the
 * link's token (a mail scanner that fetches the link changes nothing).
 */
export const VerifyEmailPage: FC<{ ctx: PageContext; token: string }> = ({ ctx, token }) => (
  <NarrowPage ctx={ctx} title="Confirm your email address" script={false}>
    <p class="lead">
      An account was created with this email address. Confirm only if you created it yourself.
    </p>
    <p>
      If you did not, close this page: nothing changes. To take the address back, ask for a{" "}
      <a href="/forgot-password">password reset</a>.
    </p>
    <form method="post" action="/verify-email" class="stack">
      <input type="hidden" name="token" value={token} />
      <button type="submit" class="button">
        Yes, I created this account
      </button>
    </form>
  </NarrowPage>
);
