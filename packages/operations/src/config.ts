import type { Logger } from "@psm/host";

/**
 * What the operations need of the server that offers them: the bounds they document and the
 * hook a password-reset request wakes. Every surface's own configuration is a superset.
 */
export interface OperationsConfig {
  /** Largest JSON (and form) body in bytes, as the capabilities document states it. */
  maxJsonBytes: number;
  /** Largest uploaded file in bytes. */
  maxUploadBytes: number;
  /**
   * Called after each accepted password-reset request, so the server can wake its mail
   * dispatcher at once. Fire and forget: it must not throw or wait.
   */
  onPasswordResetRequested: () => void;
  /** Where a failure of that hook is reported. */
  logger: Logger;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/** The defaults: 1 MiB JSON bodies, 10 MiB uploads, no hook, no log. */
export function operationsConfig(config: Partial<OperationsConfig> = {}): OperationsConfig {
  return {
    maxJsonBytes: config.maxJsonBytes ?? 1024 * 1024,
    maxUploadBytes: config.maxUploadBytes ?? 10 * 1024 * 1024,
    onPasswordResetRequested: config.onPasswordResetRequested ?? (() => {}),
    logger: config.logger ?? silent,
  };
}
