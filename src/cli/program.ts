// The survey-service command line. The verbs and flags are a contract operators' scripts rely on
// (DESIGN.md): add to them, never rename them. With --json a verb prints one JSON object.
// Each area declares its verbs in its own file; this list is the one place they are assembled.
import { Command } from 'commander';
import { VERSION } from '../platform/version.js';
import { accountCommands } from './accounts.js';
import { archiveCommands } from './archive.js';
import { auditCommands } from './audit.js';
import type { Commands } from './common.js';
import { exportCommands } from './exports.js';
import { importCommands } from './import.js';
import { importFileCommands } from './import-file.js';
import { opsCommands } from './ops.js';
import { outboxCommands } from './outbox.js';
import { serverCommands } from './server.js';
import { teamCommands } from './teams.js';
import { templateCommands } from './templates.js';

const areas: Commands[] = [
  serverCommands,
  accountCommands,
  archiveCommands,
  teamCommands,
  templateCommands,
  outboxCommands,
  exportCommands,
  importCommands,
  importFileCommands,
  opsCommands,
  auditCommands,
];

export function buildProgram(): Command {
  const program = new Command('survey-service')
    .description('Survey Service: a self-hostable survey platform with a SurveyMonkey v3 compatible API')
    .version(VERSION, '-V, --version', 'print the version and exit (reads no configuration)')
    .showHelpAfterError();
  for (const register of areas) register(program);
  return program;
}
