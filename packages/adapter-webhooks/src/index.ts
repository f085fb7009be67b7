/**
 * Webhook delivery for the marketplace: core's `WebhookTransport` port over node:http(s).
 *
 * - `createWebhookTransport(options)` signs each delivery by Standard Webhooks 1.0.0 (one
 *   signature per secret, two during a rotation), refuses URLs that reach loopback, private,
 *   link-local, multicast, reserved or metadata addresses (when vetting and again at connection
 *   time), follows no redirect, and bounds each delivery to a timeout and a few KiB read.
 * - `createClientMetadataSource(options)` fetches OAuth Client ID Metadata Documents under the same
 *   address rules, bounded in time and bytes, and caches them.
 * - `startWebhookRelay(marketplace, options)` runs the marketplace's webhook relay on a timer,
 *   one round at a time, like adapter-mail's dispatcher (both run on core's `startRounds`).
 */
export type { HostResolver } from "./allowed-addresses.js";
export { type ClientMetadataOptions, createClientMetadataSource } from "./client-metadata.js";
export {
  startWebhookRelay,
  type WebhookRelay,
  type WebhookRelayOptions,
  type WebhookRelayOwner,
  type WebhookRelayReport,
} from "./relay.js";
export { createWebhookTransport, type WebhookTransportOptions } from "./webhook-transport.js";
