// The variables panel: a widget per declared variable, a group per sub-composition instance.
import type { CompositionVariable } from "@compose/core";
import { app, defaultValues, pageBootConfig } from "./app-state.js";
import { $, element } from "./dom.js";
import { player, requestReload } from "./player.js";
import { cellValue, parseRecordList, recordColumns, type RecordRow } from "./record-list.js";
import { instanceBase, isChanged, type InstanceDeclarations, type Values } from "./values.js";

/**
 * Where a widget's value lives: the top-level composition's values (the boot config's), or one
 * sub-composition instance's (its host's data-variable-values, starting from what the author wrote).
 */
interface Scope {
  key: string;
  idPrefix: string;
  values(): Values;
  set(id: string, value: unknown): void;
  base(variable: CompositionVariable): unknown;
}

const topScope: Scope = {
  key: "",
  idPrefix: "variable-",
  values: () => app.get().values,
  set: (id, value) => app.update((state) => ({ values: { ...state.values, [id]: value } })),
  base: (variable) => variable.default,
};

function instanceScope(instance: InstanceDeclarations): Scope {
  return {
    key: instance.id,
    idPrefix: `instance-${instance.id}-`,
    values: () => app.get().instanceValues[instance.id] ?? {},
    set: (id, value) =>
      app.update((state) => ({ instanceValues: { ...state.instanceValues, [instance.id]: { ...state.instanceValues[instance.id], [id]: value } } })),
    base: (variable) => instanceBase(instance, variable),
  };
}

/** Sets a value from a widget and applies it. */
function setValue(scope: Scope, variable: CompositionVariable, value: unknown): void {
  scope.set(variable.id, value);
  document
    .querySelector(`[data-scope="${CSS.escape(scope.key)}"] [data-variable="${CSS.escape(variable.id)}"]`)
    ?.classList.toggle("changed", isChanged(variable, value, scope.base(variable)));
  scheduleApply();
}

let applyTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Applies the values once the current task is done (a reset sets many). Not after a pause in
 * typing: a load already running is dropped when it ends for the latest values, so keys typed
 * meanwhile cost one more load, and a single change shows as soon as it can.
 */
function scheduleApply(): void {
  clearTimeout(applyTimer);
  applyTimer = setTimeout(() => {
    applyTimer = undefined;
    if (JSON.stringify(pageBootConfig(app.get())) !== player.loadedConfig) requestReload();
    app.update({ applying: false });
  });
  app.update({ applying: true });
}

function numberWidget(id: string, variable: Extract<CompositionVariable, { type: "number" }>, value: unknown, apply: (value: number) => void): HTMLElement[] {
  const input = element("input", { id, type: "number", min: variable.min, max: variable.max, step: variable.step ?? "any" });
  input.value = String(value);
  const parts: HTMLElement[] = [input];
  let slider: HTMLInputElement | undefined;
  if (variable.min !== undefined && variable.max !== undefined) {
    const range = element("input", {
      type: "range",
      min: variable.min,
      max: variable.max,
      step: variable.step ?? "any",
      "aria-label": `${variable.label} slider`,
    });
    range.value = String(value);
    range.addEventListener("input", () => {
      input.value = range.value;
      apply(Number(range.value));
    });
    parts.push(range);
    slider = range;
  }
  if (variable.unit) parts.push(element("span", { class: "unit" }, variable.unit));
  input.addEventListener("input", () => {
    if (input.value.trim() === "" || !Number.isFinite(input.valueAsNumber)) return;
    if (slider) slider.value = input.value;
    apply(input.valueAsNumber);
  });
  return parts;
}

/** A table for a JSON list of records: a row per record, a text field per cell; rows can be added and removed. */
function recordTable(id: string, label: string, initial: RecordRow[], apply: (text: string) => void): HTMLElement {
  let rows = initial.map((row) => ({ ...row }));
  const columns = recordColumns(rows);
  const table = element("table", { id, class: "records", "aria-label": label });
  const commit = () => apply(JSON.stringify(rows));
  const draw = () => {
    const head = element("tr", {}, ...columns.map((column) => element("th", { scope: "col" }, column)), element("th", {}, ""));
    const body = rows.map((row, index) => {
      const cells = columns.map((column) => {
        const input = element("input", { type: "text", "aria-label": `${label}: row ${index + 1}, ${column}`, "data-row": index, "data-column": column });
        input.value = row[column] === undefined ? "" : String(row[column]);
        input.addEventListener("input", () => {
          row[column] = cellValue(rows, column, input.value);
          commit();
        });
        return element("td", {}, input);
      });
      const remove = element("button", { type: "button", class: "remove-row", "aria-label": `Remove row ${index + 1}` }, "−");
      remove.addEventListener("click", () => {
        rows = rows.filter((_, other) => other !== index);
        draw();
        commit();
      });
      return element("tr", {}, ...cells, element("td", {}, remove));
    });
    table.replaceChildren(element("thead", {}, head), element("tbody", {}, ...body));
  };
  draw();
  const add = element("button", { type: "button", class: "add-row" }, "Add row");
  add.addEventListener("click", () => {
    rows.push(Object.fromEntries(columns.map((column) => [column, cellValue(rows, column, "")])));
    draw();
    commit();
  });
  return element("div", { class: "records-editor" }, table, add);
}

/** The widget for one declaration, chosen from its type and fields, labelled by its label. */
function variableWidget(variable: CompositionVariable, scope: Scope): HTMLElement {
  const id = `${scope.idPrefix}${variable.id}`;
  const value = scope.values()[variable.id];
  const row = element("div", { class: "variable", "data-variable": variable.id, "data-type": variable.type });
  row.classList.toggle("changed", isChanged(variable, value, scope.base(variable)));
  const control = element("div", { class: "control" });
  row.append(element("label", { for: id }, variable.label), control);
  const apply = (next: unknown) => setValue(scope, variable, next);

  switch (variable.type) {
    case "string": {
      const rows = parseRecordList(value);
      if (rows) {
        control.append(recordTable(id, variable.label, rows, apply));
        break;
      }
      const input = element("input", { id, type: "text", placeholder: variable.placeholder, maxlength: variable.maxLength });
      input.value = String(value);
      input.addEventListener("input", () => apply(variable.maxLength === undefined ? input.value : input.value.slice(0, variable.maxLength)));
      control.append(input);
      break;
    }
    case "number":
      control.append(...numberWidget(id, variable, value, apply));
      break;
    case "color": {
      const input = element("input", { id, type: "color" });
      input.value = String(value).toLowerCase();
      const hex = element("span", { class: "hex" }, input.value);
      input.addEventListener("input", () => {
        hex.textContent = input.value;
        apply(input.value);
      });
      control.append(input, hex);
      break;
    }
    case "boolean": {
      const input = element("input", { id, type: "checkbox" });
      input.checked = Boolean(value);
      input.addEventListener("change", () => apply(input.checked));
      control.append(input);
      break;
    }
    case "enum": {
      const select = element("select", { id });
      for (const option of variable.options) select.append(element("option", { value: option.value }, option.label));
      select.value = String(value);
      select.addEventListener("change", () => apply(select.value));
      control.append(select);
      break;
    }
  }
  return row;
}

function buildVariablesPanel(): void {
  const { project } = app.get();
  const variables = project?.variables ?? [];
  $("variables").replaceChildren(...variables.map((variable) => variableWidget(variable, topScope)));
  const instances = project?.instances ?? [];
  $("instance-variables").replaceChildren(
    ...instances.map((instance) => {
      const scope = instanceScope(instance);
      return element(
        "fieldset",
        { class: "instance", "data-scope": instance.id },
        element("legend", {}, `${instance.id} (${instance.src})`),
        ...instance.variables.map((variable) => variableWidget(variable, scope)),
      );
    }),
  );
  $("no-variables").hidden = variables.length > 0 || instances.length > 0;
  $("reset-variables").hidden = variables.length === 0 && instances.length === 0;
}

/** Builds the widgets for each project whose declarations differ from the last; a reset takes every value back to its default. */
export function bindVariablesPanel(): void {
  app.subscribe((state) => JSON.stringify([state.project?.variables, state.project?.instances]), buildVariablesPanel);
  $("reset-variables").addEventListener("click", () => {
    app.update(defaultValues);
    buildVariablesPanel();
    scheduleApply();
  });
  $("variables").addEventListener("submit", (event) => event.preventDefault());
  $("instance-variables").addEventListener("submit", (event) => event.preventDefault());
}
