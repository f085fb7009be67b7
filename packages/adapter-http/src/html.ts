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

// Inline, so the page needs no other request; the CSP's style-src allows it.
const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f5f7;color:#1d1d1f}
main{max-width:26rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #bbb;border-radius:6px}
button{margin-top:1.5rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:6px;background:#0a58ca;color:#fff;cursor:pointer}
.error{padding:.75rem;border-radius:6px;background:#fde8e8;color:#8a1111}
.ok{padding:.75rem;border-radius:6px;background:#e6f4ea;color:#125d2a}
`;

/** A whole page; `body` must already be escaped HTML. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
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
