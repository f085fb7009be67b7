import { type ErrorCode, isMarketplaceError } from "@psm/core";

/** A refused parse as its caller sees it: the MarketplaceError's code, message and retryAfter. */
export interface Failure {
  code: ErrorCode;
  message: string;
  retryAfter?: number | undefined;
}

/** The MarketplaceError `work` fails with; any other error, or success, fails the test. */
export async function failureOf(work: Promise<unknown>): Promise<Failure> {
  try {
    await work;
  } catch (error) {
    if (isMarketplaceError(error)) {
      return { code: error.code, message: error.message, retryAfter: error.retryAfter };
    }
    throw error;
  }
  throw new Error("parse succeeded");
}
