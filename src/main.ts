// Entry point of the survey-service command.
import { buildProgram } from './cli/program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((err: Error) => {
    process.stderr.write(`survey-service: ${err.message}\n`);
    process.exit(1);
  });
