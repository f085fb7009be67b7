import type { FC } from "hono/jsx";
import { CATEGORY_OPTIONS } from "../format.js";
import type { FieldErrors } from "../forms.js";
import { Input, Select, TextArea } from "./field.js";

/** A listing form's fields as typed (every value a string, as a form sends it). */
export interface ListingDraft {
  title: string;
  description: string;
  category: string;
  price: string;
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
  condition: "",
  contact_email: "",
  expires_at: "",
  images: "",
};

/** The fields of a listing, shared by the post and edit forms, in the order a person fills them. */
export const ListingFields: FC<{ draft: ListingDraft; errors: FieldErrors }> = ({ draft, errors }) => (
  <>
    <Input name="title" label="Title" value={draft.title} error={errors.title} maxlength={200} required />
    <TextArea
      name="description"
      label="Description"
      hint="What you offer, for whom, how you work and what it includes."
      value={draft.description}
      error={errors.description}
      rows={8}
      maxlength={20000}
      required
    />
    <Select
      name="category"
      label="Category"
      value={draft.category}
      error={errors.category}
      options={[{ value: "", label: "Choose a category" }, ...CATEGORY_OPTIONS]}
    />
    <Input
      name="price"
      label="Price"
      optional
      hint="A number, such as 4800 or 1250.50. Leave empty for “price on request”."
      inputmode="decimal"
      value={draft.price}
      error={errors.price}
    />
    <Input
      name="condition"
      label="Condition"
      optional
      hint="Terms in a few words, such as “fixed scope” or “hourly”."
      value={draft.condition}
      error={errors.condition}
      maxlength={50}
    />
    <Input
      name="contact_email"
      label="Contact email"
      optional
      type="email"
      hint="Shown on the listing. Messages reach you in your inbox either way."
      value={draft.contact_email}
      error={errors.contact_email}
    />
    <Input
      name="expires_at"
      label="Available until"
      optional
      type="date"
      hint="The listing leaves search after this day (UTC)."
      value={draft.expires_at}
      error={errors.expires_at}
    />
    <TextArea
      name="images"
      label="Image links"
      optional
      hint="Up to 20 http(s) addresses, one per line. They are shown as links."
      value={draft.images}
      error={errors.images}
      rows={3}
    />
  </>
);
