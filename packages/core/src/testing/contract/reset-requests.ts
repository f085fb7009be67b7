import { describe, expect, it } from "vitest";
import type { ResetRequest } from "../../ports/mail-queue-repository.js";
import type { Repositories } from "../../ports/repositories.js";
import { testId } from "../builders.js";
import { at, type ContractContext, ids, MINUTE, seedUser } from "./context.js";

const MAX = 1_000;

function request(offsetMs: number, email = "someone@example.com"): ResetRequest {
  const when = at(offsetMs);
  return { id: testId(when), email, at: when };
}

/** Notes each request, in the order given, and fails if one is refused. */
async function note(repos: Repositories, requests: ResetRequest[]): Promise<ResetRequest[]> {
  for (const r of requests) {
    if (!(await repos.mailQueue.noteResetRequest(r, MAX))) throw new Error("note refused");
  }
  return requests;
}

/** Cases of the waiting reset requests of MailQueueRepository (noteResetRequest, takeResetRequests). */
export function resetRequestCases(ctx: ContractContext): void {
  describe("mailQueue reset requests", () => {
    it("takes noted requests once, oldest first (then by id), up to the limit", async () => {
      const repos = ctx.repos();
      const [first, second] = [request(0), request(0)];
      const [early, late] = [request(-MINUTE, "early@example.com"), request(MINUTE, "late@example.com")];
      await note(repos, [late, second!, early, first!]);
      expect(await repos.mailQueue.takeResetRequests(3)).toEqual([early, first, second]);
      expect(await repos.mailQueue.takeResetRequests(3)).toEqual([late]);
      expect(await repos.mailQueue.takeResetRequests(3)).toEqual([]);
      expect(await repos.mailQueue.takeResetRequests(0)).toEqual([]);
    });

    it("refuses a note once `max` requests wait, storing nothing; a take makes room", async () => {
      const repos = ctx.repos();
      const [a, b, c] = [request(1), request(2), request(3)];
      expect(await repos.mailQueue.noteResetRequest(a, 2)).toBe(true);
      expect(await repos.mailQueue.noteResetRequest(b, 2)).toBe(true);
      expect(await repos.mailQueue.noteResetRequest(c, 2)).toBe(false);
      expect(ids(await repos.mailQueue.takeResetRequests(1))).toEqual([a.id]);
      expect(await repos.mailQueue.noteResetRequest(c, 2)).toBe(true);
      expect(ids(await repos.mailQueue.takeResetRequests(10))).toEqual([b.id, c.id]);
    });

    it("keeps any address as given, with or without an account", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const noted = await note(repos, [request(1, user.email), request(2, "nobody@example.com")]);
      expect(await repos.mailQueue.takeResetRequests(5)).toEqual(noted);
    });

    it("a unit of work that fails after taking puts its requests back", async () => {
      const repos = ctx.repos();
      const noted = await note(repos, [request(1), request(2), request(3)]);
      const failure = new Error("enqueue failed");
      const thrown = await repos.unitOfWork
        .run(async (tx) => {
          expect(ids(await tx.mailQueue.takeResetRequests(2))).toEqual(ids(noted.slice(0, 2)));
          throw failure;
        })
        .catch((error: unknown) => error);
      expect(thrown).toBe(failure);
      expect(await repos.mailQueue.takeResetRequests(5)).toEqual(noted);
    });

    it("a unit of work that commits keeps the take, with the job it queued", async () => {
      const repos = ctx.repos();
      const user = await seedUser(repos);
      const noted = await note(repos, [request(1, user.email), request(2)]);
      await repos.unitOfWork.run(async (tx) => {
        const [taken] = await tx.mailQueue.takeResetRequests(1);
        await tx.mailQueue.enqueue({
          id: taken!.id,
          userId: user.id,
          kind: "password_reset",
          createdAt: taken!.at,
        });
      });
      expect((await repos.mailQueue.findById(noted[0]!.id))?.status).toBe("pending");
      expect(await repos.mailQueue.takeResetRequests(5)).toEqual([noted[1]]);
    });

    it.skipIf(!ctx.concurrency)("two concurrent takers never get the same request", async () => {
      const repos = ctx.repos();
      const noted = await note(
        repos,
        Array.from({ length: 20 }, (_, i) => request(i)),
      );
      const [one, two] = await Promise.all([
        repos.mailQueue.takeResetRequests(15),
        repos.mailQueue.takeResetRequests(15),
      ]);
      const all = [...ids(one), ...ids(two)];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(ids(noted).sort());
    });

    it.skipIf(!ctx.concurrency)("a take while a unit holds taken requests gets only the others", async () => {
      const repos = ctx.repos();
      const noted = await note(repos, [request(1), request(2), request(3)]);
      let outside: Promise<ResetRequest[]> | undefined;
      const inUnit = await repos.unitOfWork.run(async (tx) => {
        const taken = await tx.mailQueue.takeResetRequests(1);
        // Not awaited here: where units run alone it waits for this one to end.
        outside = repos.mailQueue.takeResetRequests(5);
        outside.catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return taken;
      });
      expect(ids(inUnit)).toEqual([noted[0]!.id]);
      expect(await outside).toEqual(noted.slice(1));
    });

    it.skipIf(!ctx.concurrency)(
      "concurrent units lose nothing: each request is taken by one, or put back",
      async () => {
        const repos = ctx.repos();
        const noted = await note(
          repos,
          Array.from({ length: 8 }, (_, i) => request(i)),
        );
        // Half the units fail after their take: their requests must still be waiting.
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            repos.unitOfWork.run(async (tx) => {
              const taken = await tx.mailQueue.takeResetRequests(1);
              if (i % 2 === 1) throw new Error("work failed");
              return ids(taken);
            }),
          ),
        );
        const committed = outcomes.flatMap((o) => (o.status === "fulfilled" ? o.value : []));
        expect(new Set(committed).size).toBe(committed.length);
        const left = ids(await repos.mailQueue.takeResetRequests(20));
        expect([...committed, ...left].sort()).toEqual(ids(noted).sort());
        expect(left.length).toBeGreaterThanOrEqual(4);
      },
    );
  });
}
