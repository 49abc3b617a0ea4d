import { DEFAULT_PLATFORM_NAMES, defaultFontPackage, defaultFontRules, GENERIC_FAMILIES, genericDefaultFamily } from "../fonts/default-fonts.js";
import { namesMentioned } from "../fonts/font-catalog.js";
import { projectFontsScript } from "../fonts/project-fonts-script.js";
import { fontFaceCss, projectFontPackages } from "./fontsource.js";
import { createLocalWeb, LOCAL_WEB_HOSTS, type LocalResponse } from "./local-resolver.js";

/**
 * The project's web for a browser the renderer does not drive (the preview's studio), which has
 * neither the render's request interception nor its font configuration: URLs of the hosts the
 * project's packages answer are written as paths of the server that shows the project (`prefix`),
 * which answers them as a render would; the default font set comes as web fonts, which the CSS
 * generic families are drawn with as in a render; the project's font packages are added to every
 * document by the script a render's pages run.
 */
export interface RoutedWeb {
  /** `text` (HTML, CSS, a script) with every URL of those hosts made a path under the prefix. */
  route(text: string): string;
  /**
   * `text` (HTML, CSS) with each generic family of its `font` and `font-family` declarations
   * preceded by the default family a render draws it with; scripts are left as they are.
   */
  drawGenericsAsRendered(text: string): string;
  /** The URL a path under the prefix (what follows it, query included) stands for; undefined when it names none of those hosts. */
  urlOf(path: string): string | undefined;
  /** What the project's packages answer for `url` (stylesheets routed in turn), or undefined: the browser then asks the web itself. */
  answer(url: string): Promise<LocalResponse | undefined>;
  /**
   * The default set's faces, as a style sheet for every document, under the families' names and
   * the platform names the project's files mention; and the render's standard font for text no
   * rule gives a family.
   */
  defaultFontsCss(): Promise<string>;
  /** The script that adds the project's font packages to a document's fonts, their files routed; undefined when it has none. */
  projectFontsScript(): Promise<string | undefined>;
}

const HOSTS = LOCAL_WEB_HOSTS.map((host) => host.replaceAll(".", "\\.")).join("|");
/** A URL of those hosts as pages write it: with its scheme, or protocol-relative after a quote, a parenthesis, `=` or a space. */
const WRITTEN_URL = new RegExp(`(?:https?:|(?<=["'(=\\s]))//(${HOSTS})(?=[/?#"'\\s)]|$)`, "gi");
/** A `font` or `font-family` declaration's value, quoted names included, up to where it ends. */
const FONT_DECLARATION = /(\bfont(?:-family)?\s*:\s*)((?:[^;{}"'<>]|"[^"]*"|'[^']*')*)/gi;
/** A generic keyword outside quotes. */
const GENERIC =
  /("[^"]*"|'[^']*')|(?<![\w-])(sans-serif|serif|monospace|cursive|fantasy|system-ui|ui-sans-serif|ui-serif|ui-monospace|ui-rounded|math)(?![\w-])/gi;

/** A script element, which the CSS rewriting leaves alone (captured: split keeps it). */
const SCRIPT_ELEMENT = /(<script\b[\s\S]*?<\/script\s*>)/i;

function withDefaultFamily(whole: string, quoted: string | undefined, keyword: string): string {
  const family = quoted ? undefined : genericDefaultFamily(keyword);
  return family ? `${family}, ${keyword}` : whole;
}

export function createRoutedWeb(projectRoot: string, prefix: string): RoutedWeb {
  const lookup = { root: projectRoot, parents: true };
  const local = createLocalWeb(lookup, { ownPackage: defaultFontPackage });
  const route = (text: string) => text.replace(WRITTEN_URL, (_, host: string) => `${prefix}${host.toLowerCase()}`);
  return {
    route,
    drawGenericsAsRendered: (text) =>
      text
        .split(SCRIPT_ELEMENT)
        .map((part, index) =>
          index % 2 === 1 ? part : part.replace(FONT_DECLARATION, (_, property: string, value: string) => property + value.replace(GENERIC, withDefaultFamily)),
        )
        .join(""),
    urlOf(path) {
      const match = /^([^/?#]+)(.*)$/.exec(path);
      const host = match?.[1]?.toLowerCase();
      return host && LOCAL_WEB_HOSTS.includes(host) ? `https://${host}${match![2] || "/"}` : undefined;
    },
    async answer(url) {
      const response = await local.resolve(url);
      if (!response || !response.contentType.startsWith("text/css")) return response;
      return { ...response, body: Buffer.from(route(response.body.toString("utf8"))) };
    },
    async defaultFontsCss() {
      const rules = await defaultFontRules(await namesMentioned(projectRoot, DEFAULT_PLATFORM_NAMES));
      return `${route(fontFaceCss(rules))}\n:where(html) { font-family: ${GENERIC_FAMILIES.standard}; }\n`;
    },
    async projectFontsScript() {
      const { rules } = await projectFontPackages(lookup, { checkFontFiles: false });
      return rules.length === 0 ? undefined : projectFontsScript(rules.map((rule) => ({ ...rule, src: route(rule.src) })));
    },
  };
}
