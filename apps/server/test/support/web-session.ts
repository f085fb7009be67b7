/** A browser's session on the pages, over fetch: its cookies, and the forms' tokens. */
export interface WebSession {
  cookie: string;
  /** GETs a page with the session's cookies. */
  page(path: string): Promise<string>;
}

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="));

/** The token of the form that posts to `action` on `html`. */
export function formToken(html: string, action: string): string {
  const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  const token = /name="_csrf" value="([^"]+)"/.exec(form?.[1] ?? "")?.[1];
  if (token === undefined) throw new Error(`no form posting to ${action}`);
  return token;
}

/** The action of the upload form posting to `path`, its token in the query. */
export function uploadAction(html: string, path: string): string {
  const action = new RegExp(`<form[^>]*action="(${path}\\?_csrf=[^"]+)"`).exec(html)?.[1];
  if (action === undefined) throw new Error(`no upload form posting to ${path}`);
  return action.replaceAll("&amp;", "&");
}

/** Logs in through the log-in form of the server at `base`, as a browser without JavaScript does. */
export async function logInOnPages(base: string, email: string, password: string): Promise<WebSession> {
  const first = await fetch(`${base}/login`, { headers: { accept: "text/html" } });
  const anonymous = cookiesOf(first).join("; ");
  const body = new URLSearchParams({ _csrf: formToken(await first.text(), "/login"), email, password });
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      accept: "text/html",
      cookie: anonymous,
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
    },
    body,
  });
  if (res.status !== 303) throw new Error(`log-in answered ${res.status}`);
  const cookie = [...cookiesOf(res), anonymous].join("; ");
  return {
    cookie,
    page: async (path) =>
      (await fetch(`${base}${path}`, { headers: { accept: "text/html", cookie } })).text(),
  };
}
