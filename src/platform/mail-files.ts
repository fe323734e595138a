// The local mail outbox (MAIL_DIR): one .eml file per email row, named by the row's id, so the
// sender, the mail page, retention and erasure all find an email's file from its id alone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export function emlFileName(id: string): string {
  return `${id}.eml`;
}

/** Removes the .eml files of these emails (those never written, e.g. sent by SMTP, are no error). */
export function removeMailFiles(dir: string, ids: readonly string[]): void {
  for (const id of ids) rmSync(join(dir, emlFileName(id)), { force: true });
}
