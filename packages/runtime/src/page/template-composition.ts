import { findCompositionRoot } from "./composition-root.js";

function parsed(): Promise<void> {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }));
}

/** A script copied from a template is inert; a new element with the same content runs. */
function runnableCopy(script: HTMLScriptElement): HTMLScriptElement {
  const copy = document.createElement("script");
  for (const { name, value } of Array.from(script.attributes)) copy.setAttribute(name, value);
  copy.textContent = script.textContent;
  return copy;
}

async function insertScript(placeholder: Comment, script: HTMLScriptElement): Promise<void> {
  const copy = runnableCopy(script);
  const done = copy.src
    ? new Promise<void>((resolve) => {
        copy.addEventListener("load", () => resolve(), { once: true });
        copy.addEventListener("error", () => resolve(), { once: true });
      })
    : Promise.resolve();
  placeholder.replaceWith(copy);
  await done;
}

/**
 * The `<template>` form of a sub-composition file: the composition's markup sits inside a
 * template, which the browser keeps inert. Puts that markup in the document in the template's
 * place and runs its scripts in document order, as a parser would have.
 */
export async function instantiateTemplateComposition(): Promise<void> {
  await parsed();
  if (findCompositionRoot()) return;
  const template = Array.from(document.querySelectorAll("template")).find((candidate) => candidate.content.querySelector("[data-composition-id]"));
  if (!template) return;
  const content = document.importNode(template.content, true);
  const scripts = Array.from(content.querySelectorAll("script")).map((script) => {
    const placeholder = document.createComment("script");
    script.replaceWith(placeholder);
    return { placeholder, script };
  });
  // A file that is only a <template> has it parsed into <head>, which is never rendered.
  if (template.parentElement === document.head) {
    document.body.append(content);
    template.remove();
  } else {
    template.replaceWith(content);
  }
  for (const { placeholder, script } of scripts) await insertScript(placeholder, script);
}
