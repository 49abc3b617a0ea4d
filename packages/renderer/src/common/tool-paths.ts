/** The environment variables that point the renderer at its programs, when they are not on PATH. */
export const TOOL_PATH_VARIABLES = { ffmpeg: "COMPOSE_FFMPEG", ffprobe: "COMPOSE_FFPROBE" } as const;

export type Tool = keyof typeof TOOL_PATH_VARIABLES;

/** The program the renderer runs for `tool`: its variable's path, else the name, found on PATH. */
export function toolPath(tool: Tool, env: NodeJS.ProcessEnv = process.env): string {
  return env[TOOL_PATH_VARIABLES[tool]] || tool;
}
