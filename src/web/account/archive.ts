// GET /account/archive: "Download everything", the whole account as one zip archive
// (docs/account-archive.md), streamed as the domain writes it.
import type { Deps } from '../../context.js';
import { exportAccount } from '../../domain/archive/export.js';
import type { PageApp } from '../page-area.js';
import { signedInOnly } from '../session.js';

export function archivePages(app: PageApp, deps: Deps): void {
  app.get(
    '/account/archive',
    { schema: { hide: true }, preHandler: signedInOnly(deps) },
    async (request, reply) => {
      const user = request.sessionUser;
      const { stream, done } = await exportAccount(deps, user.id);
      // A failure midway ends the download short (the zip has no end record), and is logged.
      done.catch((err) => request.log.error({ err }, 'account archive failed'));
      const day = deps.clock.now().toISOString().slice(0, 10);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="survey-service-${user.username}-${day}.zip"`)
        .type('application/zip')
        .send(stream);
    },
  );
}
