/**
 * The account operations a page form also performs: sign up, log in, request a password reset,
 * change the display name, change the password, create and deactivate an API key. None has an
 * MCP tool (keys are made over the API; MCP only lists them).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { createKey } from "../support/accounts.js";
import { call } from "../support/http.js";
import { allText, extraFields, hostileField, hostileText, orValid, taggedEmail } from "./hostile.js";
import { type Answer, accepted, api, encode, submit } from "./wire.js";
import { asText, expectAlike, isBlank, nextTag, PASSWORD, shown, surfaceCase } from "./world.js";

const anonymous = { cookie: "" };

const signUp = surfaceCase(
  "sign up",
  fc.record({
    email: taggedEmail,
    password: orValid(fc.constant("correct horse 1"), hostileField()),
    display_name: orValid(fc.constantFrom("Ada", "  "), hostileField()),
    extra: extraFields,
  }),
  async (w, { email, password, display_name, extra }) => {
    const form = { ...extra, email: email(`p${nextTag()}`), password: asText(password) };
    const onPage = await submit(
      w.base,
      anonymous,
      { page: "/signup", action: "/signup" },
      { ...form, display_name: asText(display_name) },
    );
    // A blank display name on the form is none at all.
    const named = isBlank(display_name) ? {} : { display_name };
    const body = { ...extra, email: email(`a${nextTag()}`), password, ...named };
    const overApi = await api(w.base, "POST", "/api/auth/signup", { body });
    return expectAlike(
      "sign up",
      { email: email("TAG"), password, display_name },
      {
        page: allText([password, display_name]) ? onPage.status < 400 : undefined,
        api: overApi,
      },
    );
  },
);

/** What a log-in ended in, on either surface: signed in, a wrong password, or input refused. */
const logInOutcome = (answer: Answer, page: boolean): string => {
  if (answer.status === 401) return "invalid_credentials";
  if (answer.status === 400) return "invalid_input";
  return page && answer.status === 303 ? "ok" : answer.outcome;
};

const logIn = surfaceCase(
  "log in",
  fc.record({
    email: fc.oneof(
      fc.constantFrom("stranger@acme.io", " stranger@acme.io ", "STRANGER@acme.io", "stranger@acme.io\u0000"),
      taggedEmail.map((email) => email("stranger")),
    ),
    password: orValid(fc.constant(PASSWORD), hostileField()),
  }),
  async (w, fields) => {
    const from = { page: "/login", action: "/login" };
    const onPage = await submit(w.base, anonymous, from, {
      email: fields.email,
      password: asText(fields.password),
    });
    const overApi = await api(w.base, "POST", "/api/auth/login", { body: fields });
    if (typeof fields.password === "string") {
      expect(logInOutcome(onPage, true), `log in ${shown(fields)}: page vs API`).toBe(
        logInOutcome(overApi, false),
      );
    }
    return logInOutcome(overApi, false);
  },
);

const requestReset = surfaceCase("request a password reset", taggedEmail, async (w, email) => {
  const address = email(`r${nextTag()}`);
  const from = { page: "/forgot-password", action: "/forgot-password" };
  const onPage = await submit(w.base, anonymous, from, { email: address });
  const overApi = await api(w.base, "POST", "/api/auth/reset-password", { body: { email: address } });
  return expectAlike("reset", address, { page: onPage.status < 400, api: overApi });
});

const displayName = surfaceCase("change the display name", hostileField(), async (w, name) => {
  const from = { page: "/account", action: "/account/profile" };
  const onPage = await submit(w.base, w.author.web, from, { display_name: asText(name) });
  const body = { display_name: name };
  const overApi = await api(w.base, "PUT", "/api/users/update", { token: w.author.token, body });
  return expectAlike("display name", name, {
    page: typeof name === "string" ? accepted(onPage) : undefined,
    api: overApi,
  });
});

/**
 * The API changes a password only with a mailed token, the page only with the current one; both
 * judge the new password by one rule first. Neither proof is given (a wrong current password, a
 * made-up token), so nothing changes and each answer says whether the new password passed.
 */
const changePassword = surfaceCase(
  "change the password",
  orValid(fc.constantFrom("a new long passphrase", "      "), hostileField()),
  async (w, next) => {
    const from = { page: "/account", action: "/account/password" };
    const text = asText(next);
    const fields = { current_password: "not-the-password", new_password: text, confirm_password: text };
    const onPage = await submit(w.base, w.stranger.web, from, fields);
    expect([400, 401], `password form ${shown(next)}`).toContain(onPage.status);
    const body = { token: "not-a-mailed-token", new_password: next };
    const overApi = await api(w.base, "POST", "/api/auth/update-password", { body });
    expect(["invalid_input", "reset_token_invalid"]).toContain(overApi.outcome);
    if (typeof next === "string") {
      expect(
        onPage.status === 401,
        `new password ${shown(next)}: page ${onPage.status}, API ${overApi.outcome}`,
      ).toBe(overApi.outcome === "reset_token_invalid");
    }
    // Past the rule, only the made-up token stood in the way.
    return overApi.outcome === "reset_token_invalid" ? "ok" : overApi.outcome;
  },
);

const createApiKey = surfaceCase("create an API key", hostileField(), async (w, name) => {
  const from = { page: "/account/keys", action: "/account/keys" };
  const onPage = await submit(w.base, w.author.web, from, { name: asText(name) });
  const overApi = await api(w.base, "POST", "/api/keys", { token: w.author.token, body: { name } });
  return expectAlike("key", name, {
    page: typeof name === "string" ? accepted(onPage) : undefined,
    api: overApi,
  });
});

/** Whether a key still lets its holder in. */
async function works(base: string, key: string): Promise<boolean> {
  const reply = await call(base, "GET", "/api/auth/me", { apiKey: key });
  return reply.status === 200 && reply.body.user !== null;
}

const deactivateApiKey = surfaceCase(
  "deactivate an API key",
  fc.oneof(fc.constantFrom("own", "other's"), hostileText(8_000)),
  async (w, target) => {
    const own = target === "own";
    const keys = own
      ? [
          await createKey(w.base, { token: w.author.token }),
          await createKey(w.base, { token: w.author.token }),
        ]
      : [];
    const idFor = (i: number) => keys[i]?.id ?? (target === "other's" ? w.ownerKey.id : target);
    const from = { page: "/account/keys", action: "/account/keys" };
    await submit(w.base, w.author.web, from, {}, `/account/keys/${encode(idFor(0))}/deactivate`);
    const overApi = await api(w.base, "DELETE", `/api/keys/${encode(idFor(1))}`, { token: w.author.token });
    if (own) {
      const left = [await works(w.base, keys[0]?.key ?? ""), await works(w.base, keys[1]?.key ?? "")];
      expect(left, "own keys after deactivating: [page, API] still work").toEqual([false, false]);
    }
    expect(await works(w.base, w.ownerKey.key), "the owner's key survives").toBe(true);
    expect(await works(w.base, w.author.apiKey), "the author's own key in use survives").toBe(true);
    return overApi.outcome;
  },
);

/** Every account case, in the order they run. */
export const accountCases = [
  signUp,
  logIn,
  requestReset,
  displayName,
  changePassword,
  createApiKey,
  deactivateApiKey,
];
