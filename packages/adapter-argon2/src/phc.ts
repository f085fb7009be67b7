import { argon2 } from "node:crypto";

/** argon2id cost parameters, as written into each PHC string. */
export interface Argon2Params {
  /** Memory in KiB (m). */
  memoryKiB: number;
  /** Passes over the memory (t). */
  passes: number;
  /** Lanes (p). */
  parallelism: number;
}

/** An argon2id PHC string, taken apart. */
export interface Phc {
  params: Argon2Params;
  salt: Buffer;
  tag: Buffer;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** The parts of an argon2id (v=19) PHC string, or null for anything else. */
export function parsePhc(hash: string): Phc | null {
  const m = PHC.exec(hash);
  if (!m) return null;
  return {
    params: { memoryKiB: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) },
    salt: Buffer.from(m[4]!, "base64"),
    tag: Buffer.from(m[5]!, "base64"),
  };
}

/** The PHC string of a salt and tag derived with `params` (base64 without padding). */
export function formatPhc({ params, salt, tag }: Phc): string {
  return `$argon2id$v=19$m=${params.memoryKiB},t=${params.passes},p=${params.parallelism}$${b64(salt)}$${b64(tag)}`;
}

/** argon2id on libuv's thread pool through Node's asynchronous crypto.argon2. */
export function deriveKey(password: string, salt: Buffer, p: Argon2Params, tagLength = 32): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      "argon2id",
      {
        message: password,
        nonce: salt,
        parallelism: p.parallelism,
        tagLength,
        memory: p.memoryKiB,
        passes: p.passes,
      },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

function b64(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "");
}
