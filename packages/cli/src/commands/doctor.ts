import type { Command } from "commander";

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("Check the environment: Node.js, ffmpeg and its encoders, ffprobe, the browser, docker, cores, memory and disk.")
    .option("--json", "print the checks as JSON")
    .action(async (options: { json?: boolean }) => {
      const [{ defaultDoctorContext, runChecks }, { formatDoctorJson, formatDoctorText, summarize }] = await Promise.all([
        import("../doctor/checks.js"),
        import("../doctor/report.js"),
      ]);
      const checks = await runChecks(defaultDoctorContext());
      const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
      process.stdout.write(options.json ? formatDoctorJson(checks) : formatDoctorText(checks, colour));
      // Warnings (docker, tight resources) do not stop local rendering; failures do.
      process.exitCode = summarize(checks).ok ? 0 : 1;
    });
}
