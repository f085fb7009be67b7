import type { WebhookDelivery } from "@psm/core";
import type { FC } from "hono/jsx";
import { DataTable } from "./data-table.js";
import { at } from "./moment.js";

const STATES = {
  pending: { label: "Pending", badge: "badge badge-paused" },
  succeeded: { label: "Succeeded", badge: "badge badge-active" },
  failed: { label: "Failed", badge: "badge badge-expired" },
} as const;

const NONE = (
  <>
    <span aria-hidden="true">—</span>
    <span class="visually-hidden">None</span>
  </>
);

/** The last attempt's HTTP status, or why it had none (a timeout, a refused address). */
function lastOutcome(delivery: WebhookDelivery) {
  if (delivery.lastStatus !== null) return delivery.lastStatus;
  if (delivery.lastError !== null) return <span class="delivery-error">{delivery.lastError}</span>;
  return NONE;
}

/**
 * A webhook's deliveries, newest first: when each was queued, its event (type and id: the
 * `webhook-id` a receiver deduplicates by), its state, attempts, the last HTTP status (or error) and when the
 * next attempt may start. Read-only: a replay is the page's own form.
 */
export const DeliveryTable: FC<{ deliveries: readonly WebhookDelivery[] }> = ({ deliveries }) => (
  <DataTable
    columns={["Time", "Event type", "Event id", "State", "Attempts", "Last status", "Next attempt"]}
    actions={false}
    label="Delivery log"
  >
    {deliveries.map((delivery) => {
      const state = STATES[delivery.state];
      return (
        <tr>
          <th scope="row">{at(delivery.createdAt)}</th>
          <td>
            <code>{delivery.type}</code>
          </td>
          <td>
            <code>{delivery.eventId}</code>
          </td>
          <td>
            <span class={state.badge}>{state.label}</span>
          </td>
          <td>{delivery.attempts}</td>
          <td>{lastOutcome(delivery)}</td>
          <td>{delivery.nextAttemptAt ? at(delivery.nextAttemptAt) : NONE}</td>
        </tr>
      );
    })}
  </DataTable>
);
