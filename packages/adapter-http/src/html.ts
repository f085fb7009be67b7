/** Small self-contained HTML pages (the reset link): no script, no third-party asset. */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

// Inline, so the page needs no other request (and works for an API-only server);
// the CSP's style-src allows it. The look, colours and type follow the web pages'
// stylesheet (@psm/adapter-web), whose contrast is at least 4.5:1 throughout.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:1rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f5f6f8;color:#1a1d23}
header{background:#fff;border-bottom:1px solid #d5d9e0;padding:.75rem 1rem}
.brand{display:inline-flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.15rem;color:#1a1d23;text-decoration:none}
.mark{display:inline-grid;place-items:center;width:2rem;height:2rem;border-radius:8px;background:#1d4ed8;color:#fff}
main{max-width:30rem;margin:2.5rem auto;padding:1.75rem;background:#fff;border:1px solid #d5d9e0;border-radius:10px;box-shadow:0 1px 3px #1018281a}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
label{display:block;margin:1rem 0 .3rem;font-weight:600}
input[type=password]{display:block;width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #6b7280;border-radius:8px}
button{margin-top:1.5rem;padding:.7rem 1.2rem;font:inherit;font-weight:600;border:2px solid #1d4ed8;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer}
button:hover{background:#1e3a8a;border-color:#1e3a8a}
.error{padding:.8rem 1rem;border-radius:10px;border:1px solid #fecdca;background:#fef3f2;color:#912018}
.ok{padding:.8rem 1rem;border-radius:10px;border:1px solid #a6f4c5;background:#ecfdf3;color:#05603a}
`;

/** A whole page; `body` must already be escaped HTML. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · psm marketplace</title>
<style>${STYLE}</style>
</head>
<body>
<header><a class="brand" href="/"><span class="mark" aria-hidden="true">p</span>psm marketplace</a></header>
<main>
${body}
</main>
</body>
</html>`;
}

/** The new-password form; `error` is shown above it in plain words. */
export function resetForm(token: string, error?: string): string {
  const message = error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>\n`;
  return htmlPage(
    "Choose a new password",
    `<h1>Choose a new password</h1>
${message}<form method="post" action="/reset-password">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="new_password">New password</label>
<input type="password" id="new_password" name="new_password" minlength="6" maxlength="1024" autocomplete="new-password" required>
<label for="confirm_password">Confirm the new password</label>
<input type="password" id="confirm_password" name="confirm_password" minlength="6" maxlength="1024" autocomplete="new-password" required>
<button type="submit">Set new password</button>
</form>`,
  );
}

/** A page with a heading and one message, e.g. "link expired" or "password changed". */
export function messagePage(title: string, message: string, kind: "error" | "ok"): string {
  return htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<p class="${kind}">${escapeHtml(message)}</p>`);
}
