import type { Webhook } from "@psm/core";
import type { FC } from "hono/jsx";
import { DataTable } from "./data-table.js";
import { WebhookState } from "./webhook-state.js";

/** A webhook's event types, one per line. */
export function typeList(types: readonly string[]) {
  return (
    <ul class="scope-list">
      {types.map((type) => (
        <li>
          <code>{type}</code>
        </li>
      ))}
    </ul>
  );
}

/**
 * The user's webhooks, one row each: the URL (a link to the webhook's own page, where everything
 * else is done), its event types, description and state. No actions column: one link per row
 * keeps the table narrow on a phone.
 */
export const WebhookTable: FC<{ webhooks: readonly Webhook[] }> = ({ webhooks }) => (
  <DataTable columns={["URL", "Event types", "Description", "State"]} actions={false}>
    {webhooks.map((webhook) => (
      <tr>
        <th scope="row">
          <a class="webhook-url" href={`/account/webhooks/${webhook.id}`}>
            {webhook.url}
          </a>
        </th>
        <td>{typeList(webhook.types)}</td>
        <td>
          <span class="webhook-description">{webhook.description}</span>
        </td>
        <td>
          <WebhookState webhook={webhook} />
        </td>
      </tr>
    ))}
  </DataTable>
);
