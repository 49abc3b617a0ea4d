// A module hook (node --import ... register()) that prints every module a process loads to stderr,
// one `loaded <url>` line each: how a test sees what a command's start costs.
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  process.stderr.write(`loaded ${result.url}\n`);
  return result;
}
