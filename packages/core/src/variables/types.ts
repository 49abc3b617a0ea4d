interface VariableBase {
  id: string;
  label: string;
}

export interface StringVariable extends VariableBase {
  type: "string";
  default: string;
  placeholder?: string;
  maxLength?: number;
}

export interface NumberVariable extends VariableBase {
  type: "number";
  default: number;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
}

export interface ColorVariable extends VariableBase {
  type: "color";
  /** #rrggbb */
  default: string;
}

export interface BooleanVariable extends VariableBase {
  type: "boolean";
  default: boolean;
}

export interface EnumOption {
  value: string;
  label: string;
}

export interface EnumVariable extends VariableBase {
  type: "enum";
  default: string;
  options: EnumOption[];
}

export type CompositionVariable = StringVariable | NumberVariable | ColorVariable | BooleanVariable | EnumVariable;

export type VariableType = CompositionVariable["type"];

export const VARIABLE_TYPES: readonly VariableType[] = ["string", "number", "color", "boolean", "enum"];

/** Values keyed by variable id; any key may be absent. */
export type VariableValues = Partial<Record<string, unknown>>;
