// psm marketplace: small enhancements only. Every page works without this file.

document.addEventListener("DOMContentLoaded", () => {
  // A form with problems: move focus to their summary, so they are read first.
  const summary = document.querySelector(".error-summary");
  if (summary instanceof HTMLElement) summary.focus();

  // "Copy key" buttons: shown only where the clipboard can be written.
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const target = document.getElementById(button.getAttribute("data-copy") || "");
    if (!(target instanceof HTMLInputElement) || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(target.value);
        button.textContent = "Copied";
      } catch {
        target.select();
        button.textContent = "Select and copy with your keyboard";
      }
    });
  }

  // One submission per form: a second click while the first is on its way does nothing.
  // (The server also treats a resent form as one write.)
  for (const form of document.querySelectorAll("form[method='post']")) {
    form.addEventListener("submit", (event) => {
      if (form.dataset.submitting === "true") {
        event.preventDefault();
        return;
      }
      form.dataset.submitting = "true";
    });
  }
});

// A page shown again from the back-forward cache may be submitted again.
window.addEventListener("pageshow", () => {
  for (const form of document.querySelectorAll("form[data-submitting]")) delete form.dataset.submitting;
});
