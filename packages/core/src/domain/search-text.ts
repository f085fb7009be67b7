/**
 * Folds text for title search: the one definition that every storage applies
 * to stored titles and to search terms alike, so a title matches a term when
 * `foldSearchText(title).includes(foldSearchText(term))`.
 *
 * It is `String#toLowerCase`: full Unicode lower-casing, the same in every
 * locale and runtime (SQLite's lower() and NOCASE fold ASCII only;
 * PostgreSQL's lower() follows the database's ctype). What that means for
 * tricky input, pinned by the repository contract:
 * - case only: `É` finds `é`, but `e` does not find `é` (no diacritic folding),
 *   and `ß` does not find `ss` (lower-casing, not full case folding);
 * - no normalization: a precomposed `é` and `e` + U+0301 are different text;
 * - `İ` becomes `i` + U+0307 (so `istanbul` does not find `İstanbul`), `ẞ`
 *   becomes `ß`, fullwidth `Ａ` becomes fullwidth `ａ`
 *   (not `a`), the Kelvin sign becomes `k`;
 * - Greek capital sigma becomes final `ς` at the end of a word, `σ` elsewhere.
 *
 * Storages keep the folded title in a column, so changing this function
 * changes what stored rows mean: it needs a migration that refolds them.
 */
export function foldSearchText(text: string): string {
  return text.toLowerCase();
}
