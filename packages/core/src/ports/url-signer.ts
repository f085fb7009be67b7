/**
 * Signs what a link carries so the server can trust it back without storing it (a one-click
 * unsubscribe needs no login and no stored token). The key never leaves the signer.
 */
export interface UrlSigner {
  /** A URL-safe signature of `message`. */
  sign(message: string): string;
  /** Whether `signature` is this signer's signature of `message`, compared in constant time. */
  verify(message: string, signature: string): boolean;
}
