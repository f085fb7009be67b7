import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import type { UrlSigner } from "../ports/url-signer.js";
import { constantTimeEqual, toBase64Url } from "./crypto.js";

/** HMAC-SHA256 under `key` (at least 32 bytes), as URL-safe base64. */
export function createHmacUrlSigner(key: Uint8Array): UrlSigner {
  if (key.length < 32) throw new RangeError("a URL signer needs a key of at least 32 bytes");
  const secret = Uint8Array.from(key);
  const sign = (message: string) => toBase64Url(hmac(sha256, secret, utf8ToBytes(message)));
  return {
    sign,
    verify: (message, signature) => constantTimeEqual(sign(message), signature),
  };
}
