import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Reads that stay flat with data.
//
// `response_days`: responses per survey, collector, day begun (the first ten characters of
// `date_created`) and status, with the sum of their `total_time`. The summary's figures and the
// analyze page's trend read it instead of every response. Triggers on `responses` keep it, so every
// write path (the group commits of both engines, the one-response path, updates, deletes, cascades)
// keeps it exact without knowing of it.
// - SQLite has one writer at a time: each trigger adds to the one row of its key (`slot` 0).
// - PostgreSQL: a transaction adds only to rows of its own `slot` (its transaction id), so no two
//   writers ever wait on, or lock in opposite orders, a shared counter row. Readers sum the slots;
//   `fold_response_days(survey)` folds a survey's slot rows into slot 0 in one statement, keys in
//   order (the analysis reads call it when a survey has gathered many), so the rows a read sums stay
//   about days × statuses × collectors, whatever the number of responses.
//
// `contacts`: the list of an account's contacts in its default order (email, then id) reads one
// page from an index on that order instead of sorting the account; `contact_counts` keeps the
// number of contacts per account and status (same triggers, same slots), so the list's total does
// not count the account. A search reads the matching contacts through a trigram index (SQLite's
// FTS5 trigram table `contacts_text`, PostgreSQL's pg_trgm GIN indexes), as migration 0031 does for
// survey titles.
export const kind = 'rolling-safe' as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const bigint = sqlite ? 'INTEGER' : 'BIGINT';
  await sql
    .raw(`CREATE TABLE response_days (
      survey_id TEXT NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
      collector_id TEXT NOT NULL,
      day TEXT NOT NULL,
      response_status TEXT NOT NULL,
      slot ${bigint} NOT NULL,
      n ${bigint} NOT NULL,
      total_time ${bigint} NOT NULL,
      PRIMARY KEY (survey_id, collector_id, day, response_status, slot))${sqlite ? ' WITHOUT ROWID' : ''}`)
    .execute(db);
  await sql`INSERT INTO response_days (survey_id, collector_id, day, response_status, slot, n, total_time)
    SELECT survey_id, collector_id, substr(date_created, 1, 10), response_status, 0, count(*), sum(total_time)
    FROM responses GROUP BY survey_id, collector_id, substr(date_created, 1, 10), response_status`.execute(
    db,
  );
  await sql
    .raw(`CREATE TABLE contact_counts (
      owner_id TEXT NOT NULL,
      status TEXT NOT NULL,
      slot ${bigint} NOT NULL,
      n ${bigint} NOT NULL,
      PRIMARY KEY (owner_id, status, slot))${sqlite ? ' WITHOUT ROWID' : ''}`)
    .execute(db);
  await sql`INSERT INTO contact_counts (owner_id, status, slot, n)
    SELECT owner_id, status, 0, count(*) FROM contacts GROUP BY owner_id, status`.execute(db);
  // The list's order: coalesce(email, '') then id, within the account and status.
  await sql`CREATE INDEX contacts_owner_status_email ON contacts (owner_id, status, (coalesce(email, '')), id)`.execute(
    db,
  );
  if (sqlite) await sqliteTriggers(db);
  else await pgTriggers(db);
}

const DAY_KEY = `survey_id, collector_id, day, response_status, slot`;

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const add = (r: 'new' | 'old', sign: '+' | '-') =>
    sign === '+'
      ? `INSERT INTO response_days (${DAY_KEY}, n, total_time)
         VALUES (new.survey_id, new.collector_id, substr(new.date_created, 1, 10), new.response_status, 0, 1, new.total_time)
         ON CONFLICT (${DAY_KEY}) DO UPDATE SET n = n + 1, total_time = total_time + excluded.total_time;`
      : `UPDATE response_days SET n = n - 1, total_time = total_time - ${r}.total_time
         WHERE survey_id = ${r}.survey_id AND collector_id = ${r}.collector_id
           AND day = substr(${r}.date_created, 1, 10) AND response_status = ${r}.response_status AND slot = 0;`;
  await sql
    .raw(`CREATE TRIGGER response_days_insert AFTER INSERT ON responses BEGIN ${add('new', '+')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER response_days_delete AFTER DELETE ON responses BEGIN ${add('old', '-')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER response_days_update
      AFTER UPDATE OF response_status, date_created, total_time, collector_id ON responses
      WHEN new.response_status IS NOT old.response_status OR new.collector_id IS NOT old.collector_id
        OR substr(new.date_created, 1, 10) IS NOT substr(old.date_created, 1, 10) OR new.total_time IS NOT old.total_time
      BEGIN ${add('old', '-')} ${add('new', '+')} END`)
    .execute(db);
  const count = (r: 'new' | 'old', sign: '+' | '-') =>
    `INSERT INTO contact_counts (owner_id, status, slot, n) VALUES (${r}.owner_id, ${r}.status, 0, ${sign}1)
     ON CONFLICT (owner_id, status, slot) DO UPDATE SET n = n ${sign} 1;`;
  await sql
    .raw(`CREATE TRIGGER contact_counts_insert AFTER INSERT ON contacts BEGIN ${count('new', '+')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER contact_counts_delete AFTER DELETE ON contacts BEGIN ${count('old', '-')} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER contact_counts_update AFTER UPDATE OF status, owner_id ON contacts
      WHEN new.status IS NOT old.status OR new.owner_id IS NOT old.owner_id
      BEGIN ${count('old', '-')} ${count('new', '+')} END`)
    .execute(db);
  // The search: one trigram row per contact (rowid = the contact's id) over the three searchable
  // columns, kept by triggers like surveys_title (migration 0031).
  await sql`CREATE VIRTUAL TABLE contacts_text USING fts5(email, first_name, last_name, tokenize = 'trigram')`.execute(
    db,
  );
  await sql`INSERT INTO contacts_text (rowid, email, first_name, last_name)
    SELECT CAST(id AS INTEGER), coalesce(email, ''), first_name, last_name FROM contacts`.execute(db);
  await sql`CREATE TRIGGER contacts_text_insert AFTER INSERT ON contacts BEGIN
    INSERT INTO contacts_text (rowid, email, first_name, last_name)
    VALUES (CAST(new.id AS INTEGER), coalesce(new.email, ''), new.first_name, new.last_name); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER contacts_text_update AFTER UPDATE OF email, first_name, last_name ON contacts
    WHEN new.email IS NOT old.email OR new.first_name IS NOT old.first_name OR new.last_name IS NOT old.last_name
    BEGIN UPDATE contacts_text SET email = coalesce(new.email, ''), first_name = new.first_name, last_name = new.last_name
    WHERE rowid = CAST(new.id AS INTEGER); END`.execute(db);
  await sql`CREATE TRIGGER contacts_text_delete AFTER DELETE ON contacts BEGIN
    DELETE FROM contacts_text WHERE rowid = CAST(old.id AS INTEGER); END`.execute(db);
}

async function pgTriggers(db: Kysely<unknown>): Promise<void> {
  // Rows of a statement, summed per key, added (or taken away) under this transaction's slot.
  // A survey's deletion cascades to its responses and its rows here: the responses' trigger then
  // finds no survey and adds nothing.
  const upsert = (rows: string, sign: '+' | '-') => `
      INSERT INTO response_days AS d (${DAY_KEY}, n, total_time)
      SELECT survey_id, collector_id, substr(date_created, 1, 10), response_status, txid_current(),
        ${sign}count(*), ${sign}sum(total_time)
      FROM ${rows} r${sign === '-' ? ' WHERE EXISTS (SELECT 1 FROM surveys s WHERE s.id = r.survey_id)' : ''}
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (${DAY_KEY}) DO UPDATE SET n = d.n + excluded.n, total_time = d.total_time + excluded.total_time;`;
  await sql
    .raw(`CREATE FUNCTION response_days_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${upsert('new_rows', '+')} RETURN NULL; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE FUNCTION response_days_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${upsert('old_rows', '-')} RETURN NULL; END $$`)
    .execute(db);
  // An update that moves a response to another key: one row trigger (most updates, a page saved,
  // move nothing and do not call it).
  await sql
    .raw(`CREATE FUNCTION response_days_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO response_days AS d (${DAY_KEY}, n, total_time)
      SELECT s, c, y, r, txid_current(), sum(k), sum(t) FROM (VALUES
        (OLD.survey_id, OLD.collector_id, substr(OLD.date_created, 1, 10), OLD.response_status, -1, -OLD.total_time::bigint),
        (NEW.survey_id, NEW.collector_id, substr(NEW.date_created, 1, 10), NEW.response_status, 1, NEW.total_time::bigint)
      ) AS v(s, c, y, r, k, t) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (${DAY_KEY}) DO UPDATE SET n = d.n + excluded.n, total_time = d.total_time + excluded.total_time;
      RETURN NULL;
    END $$`)
    .execute(db);
  await sql`CREATE TRIGGER response_days_insert AFTER INSERT ON responses
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION response_days_insert()`.execute(db);
  await sql`CREATE TRIGGER response_days_delete AFTER DELETE ON responses
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION response_days_delete()`.execute(db);
  await sql`CREATE TRIGGER response_days_update AFTER UPDATE ON responses FOR EACH ROW
    WHEN (OLD.response_status IS DISTINCT FROM NEW.response_status OR OLD.collector_id IS DISTINCT FROM NEW.collector_id
      OR substr(OLD.date_created, 1, 10) IS DISTINCT FROM substr(NEW.date_created, 1, 10)
      OR OLD.total_time IS DISTINCT FROM NEW.total_time)
    EXECUTE FUNCTION response_days_update()`.execute(db);
  // A survey's slot rows folded into slot 0: taken away and added back in one statement, slot-0 keys
  // locked in order, so concurrent folds neither deadlock nor count a row twice (a second fold finds
  // the rows already gone).
  await sql
    .raw(`CREATE FUNCTION fold_response_days(s text) RETURNS void LANGUAGE sql AS $$
    WITH moved AS (
      DELETE FROM response_days WHERE survey_id = s AND slot <> 0
      RETURNING survey_id, collector_id, day, response_status, n, total_time
    )
    INSERT INTO response_days AS d (${DAY_KEY}, n, total_time)
    SELECT survey_id, collector_id, day, response_status, 0, sum(n), sum(total_time)
    FROM moved GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (${DAY_KEY}) DO UPDATE SET n = d.n + excluded.n, total_time = d.total_time + excluded.total_time
    $$`)
    .execute(db);

  const counts = (rows: string, sign: '+' | '-') => `
      INSERT INTO contact_counts AS c (owner_id, status, slot, n)
      SELECT owner_id, status, txid_current(), ${sign}count(*) FROM ${rows} GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (owner_id, status, slot) DO UPDATE SET n = c.n + excluded.n;`;
  await sql
    .raw(`CREATE FUNCTION contact_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${counts('new_rows', '+')} RETURN NULL; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE FUNCTION contact_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN ${counts('old_rows', '-')} RETURN NULL; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE FUNCTION contact_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO contact_counts AS c (owner_id, status, slot, n) VALUES
        (OLD.owner_id, OLD.status, txid_current(), -1), (NEW.owner_id, NEW.status, txid_current(), 1)
      ON CONFLICT (owner_id, status, slot) DO UPDATE SET n = c.n + excluded.n;
      RETURN NULL;
    END $$`)
    .execute(db);
  await sql`CREATE TRIGGER contact_counts_insert AFTER INSERT ON contacts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_insert()`.execute(
    db,
  );
  await sql`CREATE TRIGGER contact_counts_delete AFTER DELETE ON contacts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_delete()`.execute(
    db,
  );
  await sql`CREATE TRIGGER contact_counts_update AFTER UPDATE ON contacts FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.owner_id IS DISTINCT FROM NEW.owner_id)
    EXECUTE FUNCTION contact_counts_update()`.execute(db);
  await sql`CREATE FUNCTION fold_contact_counts(o text) RETURNS void LANGUAGE sql AS $$
    WITH moved AS (DELETE FROM contact_counts WHERE owner_id = o AND slot <> 0 RETURNING owner_id, status, n)
    INSERT INTO contact_counts AS c (owner_id, status, slot, n)
    SELECT owner_id, status, 0, sum(n) FROM moved GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (owner_id, status, slot) DO UPDATE SET n = c.n + excluded.n
    $$`.execute(db);
  // The search (pg_trgm, created by migration 0031): LIKE '%…%' on each searchable column.
  for (const column of ['email', 'first_name', 'last_name'])
    await sql
      .raw(
        `CREATE INDEX contacts_${column}_trgm ON contacts USING gin (lower(coalesce(${column}, '')) gin_trgm_ops)`,
      )
      .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  if (sqlite) {
    for (const t of [
      'response_days_insert',
      'response_days_delete',
      'response_days_update',
      'contact_counts_insert',
      'contact_counts_delete',
      'contact_counts_update',
      'contacts_text_insert',
      'contacts_text_update',
      'contacts_text_delete',
    ])
      await sql.raw(`DROP TRIGGER ${t}`).execute(db);
    await sql`DROP TABLE contacts_text`.execute(db);
  } else {
    for (const [table, names] of [
      ['responses', ['response_days_insert', 'response_days_delete', 'response_days_update']],
      ['contacts', ['contact_counts_insert', 'contact_counts_delete', 'contact_counts_update']],
    ] as const)
      for (const t of names) {
        await sql.raw(`DROP TRIGGER ${t} ON ${table}`).execute(db);
        await sql.raw(`DROP FUNCTION ${t}()`).execute(db);
      }
    await sql`DROP FUNCTION fold_response_days(text)`.execute(db);
    await sql`DROP FUNCTION fold_contact_counts(text)`.execute(db);
    for (const column of ['email', 'first_name', 'last_name'])
      await sql.raw(`DROP INDEX contacts_${column}_trgm`).execute(db);
  }
  await sql`DROP INDEX contacts_owner_status_email`.execute(db);
  await sql`DROP TABLE contact_counts`.execute(db);
  await sql`DROP TABLE response_days`.execute(db);
}
