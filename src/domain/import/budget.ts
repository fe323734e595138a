// The default daily request budget of an import, apart from the importer: the command line's help
// shows it without loading the importer.
/** The original's daily request limit for a draft app: what an import starts from. */
export const DEFAULT_DAILY_BUDGET = 500;
