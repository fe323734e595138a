// survey-service audit: the audit log as JSON lines (one row per line, oldest first) for a SIEM.
import { InvalidArgumentError } from 'commander';
import type { Commands } from './common.js';

function isoTime(value: string): string {
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(t))
    throw new InvalidArgumentError('must be an ISO time, e.g. 2026-01-31T00:00:00Z');
  return new Date(t).toISOString();
}

export const auditCommands: Commands = (program) => {
  program
    .command('audit')
    .description('print the audit log, oldest first: with --json one JSON object a line (for a SIEM)')
    .option('--since <iso-time>', 'only rows at or after this time', isoTime)
    .option('--actor <username>', 'only rows of this actor (a username, or cli)')
    .option('--json', 'one JSON object a line')
    .action(async (opts: { since?: string; actor?: string; json?: boolean }) => {
      // Reading the log changes nothing: no audit scope, so this verb writes no row.
      const config = (await import('../config.js')).loadConfig();
      const { createDeps } = await import('../compose.js');
      const { auditRows } = await import('../domain/audit/log.js');
      const deps = await createDeps(config);
      try {
        for await (const r of auditRows(deps, { since: opts.since, actor: opts.actor })) {
          const line = opts.json
            ? JSON.stringify({
                at: r.at,
                actor_id: r.actor_id,
                actor: r.actor_name,
                via: r.via,
                app_id: r.app_id,
                address: r.address,
                action: r.action,
                target_type: r.target_type,
                target_id: r.target_id,
                outcome: r.outcome,
                status: r.status,
                team_id: r.team_id,
                id: r.id,
              })
            : [
                r.at,
                r.actor_name ?? '-',
                r.via,
                r.address ?? '-',
                r.action,
                `${r.target_type ?? '-'}:${r.target_id ?? '-'}`,
                r.outcome,
              ].join('\t');
          if (!process.stdout.write(`${line}\n`))
            await new Promise((res) => process.stdout.once('drain', res));
        }
      } finally {
        await deps.db.close();
      }
    });
};
