import { describe, expect, it } from "vitest";
import { RENDER_OPTIONS, type RenderOptionDeclaration } from "./option-declarations.js";
import { renderOptionsSchema, validateRenderOptions } from "./render-options.js";

const declarations = Object.entries(RENDER_OPTIONS) as Array<[string, RenderOptionDeclaration]>;
const filled = validateRenderOptions({});

describe("render option declarations", () => {
  it("are the fields of the render options schema, in their order", () => {
    expect(Object.keys(renderOptionsSchema.shape)).toEqual(Object.keys(RENDER_OPTIONS));
  });

  it.each(declarations)("%s is its declared default when absent, a value its own schema accepts", (field, declaration) => {
    expect(filled.ok && (filled.options as Record<string, unknown>)[field]).toEqual(declaration.default);
    if (declaration.default !== undefined) expect(declaration.schema.safeParse(declaration.default).success).toBe(true);
  });

  it.each(declarations)("%s refuses a value of the wrong type with one line saying what it must be", (field) => {
    expect(validateRenderOptions({ [field]: null })).toEqual({ ok: false, problem: { field, problem: expect.stringMatching(/^must [^\n]+$/), value: null } });
  });
});
