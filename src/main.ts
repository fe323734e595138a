// Entry point of the survey-service command.
import { VERSION } from './platform/version.js';

// --version answers before the command line, and every module its verbs load, is imported.
if (process.argv.length === 3 && ['--version', '-V'].includes(process.argv[2])) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { buildProgram } = await import('./cli/program.js');
  buildProgram()
    .parseAsync(process.argv)
    .catch((err: Error) => {
      process.stderr.write(`survey-service: ${err.message}\n`);
      process.exit(1);
    });
}
