import { CATEGORY_VALUES } from "@psm/core";
import { categoryList } from "@psm/operations";
import * as v from "valibot";
import type { CatalogTool } from "./catalog-tool.js";
import { type DescribedShapes, outputOf } from "./output-schema.js";
import { toolDescription } from "./tool-description.js";

const CategoriesAnswer = v.object({
  categories: v.pipe(
    v.array(
      v.object({
        value: v.pipe(
          v.picklist(CATEGORY_VALUES),
          v.description("The value listings carry and search_listings takes."),
        ),
        label: v.pipe(v.string(), v.description("A name for people.")),
        display_slug: v.pipe(v.string(), v.description("A short slug for URLs and menus.")),
      }),
    ),
    v.description("The ten service categories."),
  ),
});

/** list_categories: the categories of the capabilities document. */
export async function categoriesTool(described: DescribedShapes): Promise<CatalogTool> {
  const output = await outputOf(CategoriesAnswer, "list_categories", described);
  return {
    name: "list_categories",
    title: "List the service categories",
    description: toolDescription(
      "The ten categories a listing belongs to, with labels; as in GET /api/capabilities.",
      "to learn the category values search_listings and create_listing take",
      output.summary,
    ),
    auth: "public",
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    rate: "read",
    http: null,
    inputSchema: { type: "object", properties: {} },
    outputSchema: output.schema,
    call: async () => ({ body: { categories: categoryList() }, replayed: false }),
  };
}
