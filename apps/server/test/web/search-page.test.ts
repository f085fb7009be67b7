import { expect, it } from "vitest";
import { reportSkippedPostgres } from "../support/backends.js";
import { checkPage, inNewTab } from "../support/browser.js";
import { fill, press } from "../support/pages.js";
import { useWebSuite } from "../support/web-suite.js";

// The buyer's searches that issue 31 was filed for, typed into the browse page of the compiled
// server in Chromium: a word found only in a description, a stem ("consulting" finds
// "consultant") and an accent ("cafe" finds "café"), with JavaScript on and off.

reportSkippedPostgres("the browse page's search in a browser");
const suite = useWebSuite();

suite.describeSites((backend, site) => {
  for (const js of [true, false]) {
    it(`with JavaScript ${js ? "on" : "off"}: finds what a buyer means`, async () => {
      const tag = `${backend}${js ? "js" : "nojs"}`;
      const owner = await site().account(`searcher-${tag}`);
      const titles = {
        pentest: `Pentest offer ${tag}`,
        consultant: `Growth consultant ${tag}`,
        cafe: `Café branding ${tag}`,
      };
      await site().listing(owner, {
        title: titles.pentest,
        description: "Penetration Testing for SaaS Startups: two weeks against your web application.",
        category: "cybersecurity",
      });
      await site().listing(owner, { title: titles.consultant, category: "digital-marketing" });
      await site().listing(owner, { title: titles.cafe, category: "ux-ui-design" });

      await inNewTab(suite.browser(), site().url, js, async (tab) => {
        const { page } = tab;
        const search = async (words: string): Promise<string[]> => {
          await page.goto("/");
          await fill(page, "Search", `${words} ${tag}`);
          await press(page, "button", "Search");
          return page.locator(".card-title").allTextContents();
        };
        expect((await search("penetration")).map((t) => t.trim())).toEqual([titles.pentest]);
        // The query stays in the address, so the search can be shared and saved.
        expect(new URL(page.url()).searchParams.get("q")).toBe(`penetration ${tag}`);
        await checkPage(tab);
        expect((await search("consulting")).map((t) => t.trim())).toEqual([titles.consultant]);
        expect((await search("cafe")).map((t) => t.trim())).toEqual([titles.cafe]);
        expect(tab.problems).toEqual([]);
      });
    });
  }
});
