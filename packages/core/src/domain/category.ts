/** One of the ten service categories, with its label and display slug. */
export interface CategoryInfo {
  readonly value: Category;
  readonly label: string;
  readonly displaySlug: string;
}

/** The enumerated category values, in the interface's order. */
export const CATEGORY_VALUES = [
  "strategic-consulting",
  "software-development",
  "digital-marketing",
  "ux-ui-design",
  "staffing-hr",
  "data-analytics",
  "cybersecurity",
  "artificial-intelligence",
  "legal-consulting",
  "financial-services",
] as const;

export type Category = (typeof CATEGORY_VALUES)[number];

const LABELS: Record<Category, [label: string, displaySlug: string]> = {
  "strategic-consulting": ["Strategic Consulting", "consulting"],
  "software-development": ["Software Development", "development"],
  "digital-marketing": ["Digital Marketing", "marketing"],
  "ux-ui-design": ["UX/UI Design", "design"],
  "staffing-hr": ["Staffing & HR", "staffing"],
  "data-analytics": ["Data & Analytics", "data"],
  cybersecurity: ["Cybersecurity", "security"],
  "artificial-intelligence": ["Artificial Intelligence", "ai"],
  "legal-consulting": ["Legal Consulting", "legal"],
  "financial-services": ["Financial Services", "finance"],
};

/** All ten categories with label and display slug. */
export const CATEGORIES: readonly CategoryInfo[] = CATEGORY_VALUES.map((value) => ({
  value,
  label: LABELS[value][0],
  displaySlug: LABELS[value][1],
}));

/** Narrows a string to a Category. */
export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORY_VALUES as readonly string[]).includes(value);
}
