// Shared pieces of the command line: option parsers, output, and running a verb with services.
// Verbs load their modules when they run (dynamic import), so --help and a bad argument stay cheap.
import { type Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../context.js';

export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number (0 = no cap)');
  return n;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** With --json, one JSON object on stdout; otherwise a line for people. */
export function print(json: boolean, object: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${human}\n`);
}

/**
 * Runs a provisioning verb with migrated services, closing the database afterwards. The verb is
 * its path (`user update`): the process runs as that one change of the audit log, whose row is
 * written in the verb's first committing write (or, when it fails before any, as `failed`).
 */
export async function withDeps<T>(
  verb: string,
  fn: (deps: Deps) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  // The configuration is checked before the services' modules load: a wrong variable is reported fast.
  const config = (await import('../config.js')).loadConfig();
  const { createDeps } = await import('../compose.js');
  const deps = await createDeps(config, options);
  const [{ newScope }, { auditAfter }] = await Promise.all([
    import('../domain/audit/context.js'),
    import('../domain/audit/log.js'),
  ]);
  const scope = newScope({
    actorId: null,
    actorName: 'cli',
    via: 'cli',
    appId: null,
    address: null,
    action: verb,
    targetType: verb.split(' ')[0],
    targetId: null,
  });
  deps.audit.processScope = scope;
  try {
    return await fn(deps);
  } catch (err) {
    await auditAfter(deps, scope, 'failed', null).catch(() => {});
    throw err;
  } finally {
    deps.audit.processScope = undefined;
    await deps.db.close();
  }
}

/** The verb group `name` (user, app, team, ...), created on first use so areas can add verbs to it. */
export function verbGroup(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

/** One area's verbs. */
export type Commands = (program: Command) => void;
