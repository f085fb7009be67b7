import type { FC } from "hono/jsx";
import { NarrowPage } from "../components/narrow-page.js";
import type { PageContext } from "../render.js";

/** What a problem page says: a heading, a sentence, and where to go next. */
export interface Problem {
  title: string;
  message: string;
  next?: { href: string; label: string };
}

/** A page that explains one problem (not found, too many attempts, a stale form...) and offers a way on. */
export const ProblemPage: FC<{ ctx: PageContext; problem: Problem }> = ({ ctx, problem }) => (
  <NarrowPage ctx={ctx} title={problem.title}>
    <p class="lead">{problem.message}</p>
    <p>
      <a class="button" href={problem.next?.href ?? "/"}>
        {problem.next?.label ?? "Go to the marketplace"}
      </a>
    </p>
  </NarrowPage>
);
