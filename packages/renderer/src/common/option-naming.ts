/** How a request wants the renderer's messages to name a render option. */
export interface OptionNaming {
  /** The CLI's flags (`--gpu`); the JSON field name (`gpu`) where absent, as HTTP and library callers know it. */
  optionName?: ((field: string) => string) | undefined;
}

export function optionNamer(request: OptionNaming): (field: string) => string {
  return request.optionName ?? ((field) => field);
}
