/** One face a stylesheet asks for: a style and a weight, or a range of weights (variable fonts). */
export interface RequestedFace {
  style: "normal" | "italic";
  weight: number | [number, number];
}

export interface RequestedFamily {
  family: string;
  faces: RequestedFace[];
}

export const GOOGLE_FONTS_HOST = "fonts.googleapis.com";

function weightOf(text: string): number | [number, number] | undefined {
  const range = /^(\d+)\.\.(\d+)$/.exec(text);
  if (range) return [Number(range[1]), Number(range[2])];
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** css2 axes: `ital,wght@0,400;1,700`, `wght@400;700`, `ital@1`. */
function css2Faces(spec: string): RequestedFace[] | undefined {
  const [axesText, tuplesText] = spec.split("@");
  if (axesText === undefined || tuplesText === undefined) return undefined;
  const axes = axesText.split(",");
  const faces: RequestedFace[] = [];
  for (const tuple of tuplesText.split(";")) {
    const values = tuple.split(",");
    if (values.length !== axes.length) return undefined;
    const face: RequestedFace = { style: "normal", weight: 400 };
    for (const [index, axis] of axes.entries()) {
      const value = values[index]!;
      if (axis === "ital") face.style = value === "1" ? "italic" : "normal";
      else if (axis === "wght") {
        const weight = weightOf(value);
        if (weight === undefined) return undefined;
        face.weight = weight;
      }
      // Other axes (opsz, wdth...) select within a face; the package's files carry what they have.
    }
    faces.push(face);
  }
  return faces;
}

/** css (v1) variants: `400,700italic,400i,bold,regular,italic`. */
function css1Faces(spec: string): RequestedFace[] | undefined {
  const faces: RequestedFace[] = [];
  for (const variant of spec.split(",")) {
    const match = /^(\d+|bold|regular|normal)?(italic|i)?$/i.exec(variant.trim());
    if (!match || variant.trim() === "") return undefined;
    const name = match[1]?.toLowerCase();
    faces.push({
      style: match[2] ? "italic" : "normal",
      weight: name === "bold" ? 700 : name === undefined || name === "regular" || name === "normal" ? 400 : Number(name),
    });
  }
  return faces;
}

/**
 * The families and faces a Google Fonts stylesheet URL (css or css2) asks for, or undefined when
 * the URL is not one or cannot be read.
 */
export function parseGoogleFontsUrl(url: string): RequestedFamily[] | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname !== GOOGLE_FONTS_HOST) return undefined;
  const families: RequestedFamily[] = [];
  if (parsed.pathname === "/css2") {
    for (const param of parsed.searchParams.getAll("family")) {
      const [family, spec] = param.split(":");
      const faces = spec === undefined ? [{ style: "normal" as const, weight: 400 }] : css2Faces(spec);
      if (!family || !faces) return undefined;
      families.push({ family: family.trim(), faces });
    }
  } else if (parsed.pathname === "/css") {
    for (const param of (parsed.searchParams.get("family") ?? "").split("|")) {
      const [family, spec] = param.split(":");
      const faces = spec === undefined ? [{ style: "normal" as const, weight: 400 }] : css1Faces(spec);
      if (!family || !faces) return undefined;
      families.push({ family: family.trim(), faces });
    }
  } else {
    return undefined;
  }
  return families.length > 0 ? families : undefined;
}
