import { type ApiKey, DEFAULT_ROTATION_GRACE_SECONDS, keyRefusal } from "@psm/core";
import type { FC } from "hono/jsx";
import { formatDateTime } from "../format.js";
import { GRACE_CHOICES } from "../key-form.js";
import type { PageContext } from "../render.js";
import { DataTable } from "./data-table.js";
import { PostForm } from "./post-form.js";
import { RowButton } from "./row-actions.js";

const STATES = {
  active: { label: "Active", badge: "badge badge-active" },
  revoked: { label: "Deactivated", badge: "badge badge-expired" },
  expired: { label: "Expired", badge: "badge badge-expired" },
} as const;

const NONE = (
  <>
    <span aria-hidden="true">—</span>
    <span class="visually-hidden">None</span>
  </>
);

/** When the key stops: never, a moment ahead, or already past. */
function expiry(key: ApiKey, now: Date) {
  if (key.expiresAt === null) return "Never";
  if (key.expiresAt.getTime() <= now.getTime()) return "Expired";
  return <time datetime={key.expiresAt.toISOString()}>{formatDateTime(key.expiresAt)}</time>;
}

/** A key's scopes; none recorded is every scope its owner may use. */
export function scopeList(scopes: ApiKey["scopes"]) {
  if (scopes === null) return "Full access";
  return (
    <ul class="scope-list">
      {scopes.map((scope) => (
        <li>
          <code>{scope}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * A key's rotation: how long the old key keeps working, then the button. Its own form, so its
 * token keys this one rotation (a resent form makes one new key).
 */
const RotateForm: FC<{ ctx: PageContext; apiKey: ApiKey }> = ({ ctx, apiKey }) => {
  const id = `grace-${apiKey.id}`;
  return (
    <PostForm ctx={ctx} action={`/account/keys/${apiKey.id}/rotate`} class="rotate-form">
      <label for={id}>
        Old key works for<span class="visually-hidden"> after rotating {apiKey.name}</span>
      </label>
      <select id={id} name="grace_seconds">
        {GRACE_CHOICES.map((choice) => (
          <option value={choice.value} selected={choice.value === String(DEFAULT_ROTATION_GRACE_SECONDS)}>
            {choice.label}
          </option>
        ))}
      </select>
      <button type="submit" class="button button-secondary button-small">
        Rotate<span class="visually-hidden"> {apiKey.name}</span>
      </button>
    </PostForm>
  );
};

/**
 * The keys, one row each: what tells them apart (name, prefix), what they may do, when they stop,
 * their last use and state; a working key of the viewer's own can be rotated or deactivated (an
 * admin sees every key, and may deactivate but never rotate another's: that would hand over a
 * secret acting as its owner).
 */
export const KeyTable: FC<{ ctx: PageContext; keys: readonly ApiKey[]; now: Date; userId: string }> = ({
  ctx,
  keys,
  now,
  userId,
}) => (
  <DataTable columns={["Name", "Prefix", "Scopes", "Expires", "Last used", "State"]} stacked>
    {keys.map((key) => {
      const state = STATES[keyRefusal(key, now) ?? "active"];
      const working = state === STATES.active;
      return (
        <tr>
          <th scope="row">{key.name}</th>
          <td data-label="Prefix">{key.prefix === null ? NONE : <code>{key.prefix}…</code>}</td>
          <td data-label="Scopes">{scopeList(key.scopes)}</td>
          <td data-label="Expires">{expiry(key, now)}</td>
          <td data-label="Last used">{key.lastUsed ? formatDateTime(key.lastUsed) : "Never"}</td>
          <td data-label="State">
            <span class={state.badge}>{state.label}</span>
          </td>
          <td class="row-actions">
            {working && key.userId === userId ? <RotateForm ctx={ctx} apiKey={key} /> : null}
            {working ? (
              <RowButton
                ctx={ctx}
                action={`/account/keys/${key.id}/deactivate`}
                label="Deactivate"
                subject={key.name}
                tone="danger"
              />
            ) : null}
          </td>
        </tr>
      );
    })}
  </DataTable>
);
