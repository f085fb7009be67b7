import type { WebSession } from "./web-session.js";

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&quot;": '"',
  "&lt;": "<",
  "&gt;": ">",
  "&#39;": "'",
};
const decodeEntities = (text: string) =>
  text.replace(/&(amp|quot|lt|gt|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** What the consent page's form holds: its hidden fields (the CSRF token among them) and its scope boxes. */
export function consentForm(html: string): { hidden: Record<string, string>; scopes: string[] } {
  const form = /<form[^>]*action="\/oauth\/authorize"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (form === undefined) throw new Error(`no consent form on the page:\n${html.slice(0, 400)}`);
  const hidden: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    hidden[decodeEntities(match[1] ?? "")] = decodeEntities(match[2] ?? "");
  }
  const scopes = [...form.matchAll(/name="scope\.([^"]+)"/g)].map((match) => match[1] ?? "");
  return { hidden, scopes };
}

/**
 * Answers the consent page of `authorizeUrl` as a browser without JavaScript would: opens it with
 * the session's cookies, then posts its form with `decision` and the boxes in `scopes` ticked (all
 * those shown when not given). Answers where the server sent the browser (the client's callback).
 */
export async function answerConsent(
  base: string,
  session: WebSession,
  authorizeUrl: string,
  decision: "approve" | "deny" = "approve",
  scopes?: readonly string[],
): Promise<URL> {
  const page = await fetch(authorizeUrl, { headers: { accept: "text/html", cookie: session.cookie } });
  if (page.status !== 200) throw new Error(`the consent page answered ${page.status}`);
  const { hidden, scopes: shown } = consentForm(await page.text());
  const body = new URLSearchParams({ ...hidden, decision });
  for (const scope of scopes ?? shown) body.set(`scope.${scope}`, "yes");
  const answer = await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: {
      accept: "text/html",
      cookie: session.cookie,
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
  });
  const location = answer.headers.get("location");
  if (answer.status !== 303 || location === null)
    throw new Error(`the consent form answered ${answer.status}`);
  return new URL(location);
}
