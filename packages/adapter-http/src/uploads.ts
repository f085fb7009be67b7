import { createUploadGate, type UploadBounds, type UploadGate } from "@psm/host";
import type { ResolvedConfig } from "./config.js";

/** The host's upload gate the API shares with the other surfaces, or bounds to make one of its own from. */
export type Uploads = UploadGate | Partial<Omit<UploadBounds, "maxFileBytes">>;

/** The gate of `uploads`: given, or made for this config (maxUploadBytes, maxConcurrentUploads). */
export function uploadGateOf(config: ResolvedConfig, uploads: Uploads = {}): UploadGate {
  if ("receive" in uploads) return uploads;
  return createUploadGate({
    maxFileBytes: config.maxUploadBytes,
    concurrent: config.maxConcurrentUploads,
    ...uploads,
  });
}
