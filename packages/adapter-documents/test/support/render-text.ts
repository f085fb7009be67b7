import { encodeGrayPng } from "../../src/png-encode.js";
import { GLYPH_ROWS, glyph } from "./bitmap-font.js";

/** How the text is laid out: pixels per font cell, stroke half-width and the margin. */
export interface RenderOptions {
  scale?: number;
  radius?: number;
  margin?: number;
}

type Segment = readonly [x1: number, y1: number, x2: number, y2: number];

/** Joins neighbouring ink cells into strokes, so the letters look drawn rather than blocky. */
function strokes(cells: boolean[][]): Segment[] {
  const ink = (x: number, y: number) => cells[y]?.[x] === true;
  const out: Segment[] = [];
  cells.forEach((row, y) => {
    row.forEach((on, x) => {
      if (!on) return;
      out.push([x, y, x, y]);
      if (ink(x + 1, y)) out.push([x, y, x + 1, y]);
      if (ink(x, y + 1)) out.push([x, y, x, y + 1]);
      if (ink(x + 1, y + 1) && !ink(x + 1, y) && !ink(x, y + 1)) out.push([x, y, x + 1, y + 1]);
      if (ink(x - 1, y + 1) && !ink(x - 1, y) && !ink(x, y + 1)) out.push([x, y, x - 1, y + 1]);
    });
  });
  return out;
}

function distance(px: number, py: number, [x1, y1, x2, y2]: Segment): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / length));
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}

/** Prints lines of text into a grayscale PNG with the hand-written bitmap font (black on white). */
export function renderTextPng(lines: readonly string[], options: RenderOptions = {}): Uint8Array {
  const scale = options.scale ?? 4;
  const radius = options.radius ?? 1.7;
  const margin = options.margin ?? 32;
  const lineHeight = (GLYPH_ROWS + 3) * scale;
  const layout = lines.map((line) => [...line].map((char) => glyph(char) ?? glyph("?") ?? []));
  const widthOf = (cells: boolean[][]) => ((cells[0]?.length ?? 5) + 1) * scale;
  const width = margin * 2 + Math.max(1, ...layout.map((g) => g.reduce((sum, c) => sum + widthOf(c), 0)));
  const height = margin * 2 + lines.length * lineHeight;
  const gray = new Uint8Array(width * height).fill(255);
  layout.forEach((glyphs, row) => {
    let x0 = margin;
    const y0 = margin + row * lineHeight;
    for (const cells of glyphs) {
      const segments = strokes(cells).map(
        ([a, b, c, d]) =>
          [(a + 0.5) * scale, (b + 0.5) * scale, (c + 0.5) * scale, (d + 0.5) * scale] as const,
      );
      const w = widthOf(cells);
      for (let y = 0; y < GLYPH_ROWS * scale; y++) {
        for (let x = 0; x < w; x++) {
          let best = Number.POSITIVE_INFINITY;
          for (const segment of segments) best = Math.min(best, distance(x + 0.5, y + 0.5, segment));
          // Coverage falls off over one pixel at the stroke edge: cheap anti-aliasing.
          const coverage = Math.max(0, Math.min(1, radius + 0.5 - best));
          const at = (y0 + y) * width + x0 + x;
          gray[at] = Math.min(gray[at] ?? 255, Math.round(255 * (1 - coverage)));
        }
      }
      x0 += w;
    }
  });
  return encodeGrayPng(width, height, gray);
}
