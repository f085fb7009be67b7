import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import type { PageContext } from "../render.js";

/** What a mailed link came to: a heading, a sentence in the tone of the outcome, and a way on. */
export interface LinkOutcome {
  title: string;
  message: string;
  tone: "ok" | "error";
  next: { href: string; label: string };
}

/** The page after a mailed link was followed: done, dead, incomplete, or a form that could not be read. */
export const LinkOutcomePage: FC<{ ctx: PageContext; outcome: LinkOutcome }> = ({ ctx, outcome }) => (
  <NarrowPage ctx={ctx} title={outcome.title} script={false}>
    <p class={`notice notice-${outcome.tone}`}>{outcome.message}</p>
    <p>
      <a class="button" href={outcome.next.href}>
        {outcome.next.label}
      </a>
    </p>
  </NarrowPage>
);
