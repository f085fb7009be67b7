import type { FC } from "hono/jsx";
import { CATEGORY_OPTIONS, PRICE_UNIT_OPTIONS } from "../format.js";
import type { FieldErrors } from "../forms.js";
import { Input, Select, TextArea } from "./field.js";

/** A listing form's fields as typed (every value a string, as a form sends it). */
export interface ListingDraft {
  title: string;
  description: string;
  category: string;
  price: string;
  price_unit: string;
  condition: string;
  contact_email: string;
  expires_at: string;
  images: string;
}

/** An empty draft. */
export const EMPTY_DRAFT: ListingDraft = {
  title: "",
  description: "",
  category: "",
  price: "",
  price_unit: "fixed",
  condition: "",
  contact_email: "",
  expires_at: "",
  images: "",
};

/** The fields of a listing, shared by the post and edit forms, in the order a person fills them. */
export const ListingFields: FC<{ draft: ListingDraft; errors: FieldErrors; currency: string }> = ({
  draft,
  errors,
  currency,
}) => {
  /** A field's name, with what the draft holds for it and what is wrong with that. */
  const bound = (name: keyof ListingDraft) => ({ name, value: draft[name], error: errors[name] });
  return (
    <>
      <Input {...bound("title")} label="Title" maxlength={200} required />
      <TextArea
        {...bound("description")}
        label="Description"
        hint="What you offer, for whom, how you work and what it includes."
        rows={8}
        maxlength={20000}
        required
      />
      <Select
        {...bound("category")}
        label="Category"
        options={[{ value: "", label: "Choose a category" }, ...CATEGORY_OPTIONS]}
      />
      <Input
        {...bound("price")}
        label={`Price (${currency})`}
        optional
        hint="A number, such as 4800 or 1250.50. Leave empty for “price on request”."
        inputmode="decimal"
      />
      <Select {...bound("price_unit")} label="Billed" options={PRICE_UNIT_OPTIONS} />
      <Input
        {...bound("condition")}
        label="Condition"
        optional
        hint="Terms in a few words, such as “fixed scope” or “remote only”."
        maxlength={50}
      />
      <Input
        {...bound("contact_email")}
        label="Contact email"
        optional
        type="email"
        hint="Shown on the listing. Messages reach you in your inbox either way."
      />
      <Input
        {...bound("expires_at")}
        label="Available until"
        optional
        type="date"
        hint="The listing leaves search after this day (UTC)."
      />
      <TextArea
        {...bound("images")}
        label="Image links"
        optional
        hint="Up to 20 http(s) addresses, one per line. They are shown as links."
        rows={3}
      />
    </>
  );
};
