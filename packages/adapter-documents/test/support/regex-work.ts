/**
 * The characters the regular expression engine is asked to scan while `work` runs: each match
 * attempt counts from where it starts to where its match ends, or to the end of the input when
 * it finds none (a sticky attempt, tried at one position only, counts its match and one). Every
 * regex method (`test`, `match`, `matchAll`, `replace`, `split`, `search`) goes through
 * `RegExp.prototype.exec` once that is replaced, as the language defines them, so nothing is
 * missed. A deterministic count of work: the same input gives the same number on any machine,
 * however loaded. It sees a reader that hands the engine the same text again and again (the
 * usual quadratic); backtracking inside one attempt is the benchmark's (bench/linearity.ts).
 */
export async function regexWork(work: () => unknown): Promise<number> {
  const proto = RegExp.prototype;
  const original = proto.exec;
  let scanned = 0;
  proto.exec = function exec(this: RegExp, input: string) {
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const found = original.call(this, input);
    if (this.sticky) scanned += 1 + (found?.[0].length ?? 0);
    else scanned += Math.max(1, (found === null ? input.length : found.index + found[0].length) - start);
    return found;
  };
  try {
    await work();
  } finally {
    proto.exec = original;
  }
  return scanned;
}
