import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';
import { SettingsError } from '../model/index.js';
import { Refused, inertLine, errorMessage } from '../lib/index.js';

/** Exit codes: 0 success; 2 usage or validation error (nothing written); 1 any other failure. */
async function main(argv: string[]): Promise<number> {
  const { program, close } = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return EXIT_OK;
      }
      return EXIT_USAGE;
    }
    // An error is one line, inert: it may quote a name, a path or a value someone typed or an agent chose.
    if (error instanceof UsageError || error instanceof Refused || error instanceof SettingsError) {
      process.stderr.write(`teams: ${inertLine(error.message)}\n`);
      return EXIT_USAGE;
    }
    const message = errorMessage(error);
    process.stderr.write(`teams: ${inertLine(message)}\n`);
    return EXIT_FAILURE;
  } finally {
    await close();
  }
}

// A reader that stops early (`teams log | head`) closes the pipe: that ends the output, not in a
// crash. Only for pipes: on a terminal the REPL handles its own hang-up (EIO).
if (!process.stdout.isTTY) {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT_OK);
  });
}

process.exitCode = await main(process.argv);
