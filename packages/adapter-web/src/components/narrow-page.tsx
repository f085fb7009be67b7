import type { FC, PropsWithChildren } from "hono/jsx";
import type { FieldErrors } from "../forms.js";
import type { PageContext } from "../render.js";
import { ErrorSummary } from "./field.js";
import { Layout } from "./layout.js";

/**
 * A page of one narrow column: an optional way back, the summary of its form's problems (before
 * the h1, so it is the first thing read after a refused submit), then the h1 and the page's body.
 */
export const NarrowPage: FC<
  PropsWithChildren<{
    ctx: PageContext;
    title: string;
    /** The h1, when it is not the title word for word. */
    heading?: string;
    errors?: FieldErrors;
    /** A link up one level, above everything else. */
    back?: { href: string; label: string };
    script?: boolean;
  }>
> = ({ ctx, title, heading, errors = {}, back, script, children }) => (
  <Layout ctx={ctx} title={title} script={script}>
    <div class="narrow">
      {back ? (
        <p class="breadcrumb">
          <a href={back.href}>{back.label}</a>
        </p>
      ) : null}
      <ErrorSummary errors={errors} />
      <h1>{heading ?? title}</h1>
      {children}
    </div>
  </Layout>
);
