// The one catalogue of API error codes (spec "Errors", reference §16). Every failure the API
// returns is built from an entry here, so ids, names, messages and HTTP statuses never drift.

export interface ErrorEntry {
  id: string;
  status: number;
  name: string;
  message: string;
}

const entries: Array<[number, number, string, string]> = [
  [1000, 400, 'Bad Request', 'The request could not be processed with the input provided.'],
  [1001, 400, 'Bad Request', 'The body provided was not a proper JSON string.'],
  [1002, 400, 'Bad Request', 'Invalid schema in the body provided.'],
  [1003, 400, 'Bad Request', 'Invalid URL parameters.'],
  [1004, 400, 'Bad Request', 'Invalid request headers.'],
  [1005, 402, 'Payment Required', 'This account must be upgraded to access this resource.'],
  [1010, 401, 'Authorization Error', 'The authorization token was not provided.'],
  [1011, 401, 'Authorization Error', 'The authorization token provided was invalid.'],
  [1012, 401, 'Authorization Error', 'The authorization token provided has expired.'],
  [1013, 401, 'Authorization Error', 'Client revoked access to the token.'],
  [1014, 403, 'Permission Error', 'Permission has not been granted by the user to make this request.'],
  [1015, 403, 'Permission Error', 'The user does not have the required plan to make this request.'],
  [1016, 403, 'Permission Error', 'The user does not have permission to access this resource.'],
  [1017, 403, 'Permission Error', 'The user has hit a quota limit on this resource.'],
  [1018, 403, 'Permission Error', 'The user may not access this host; use the access_url for this account.'],
  [1020, 404, 'Resource Not Found', 'There was an error retrieving the requested resource.'],
  [
    1025,
    409,
    'Resource Conflict',
    'The request conflicts with the state of the resource; check its settings.',
  ],
  [1026, 409, 'Resource Conflict', 'The resource already exists.'],
  [1030, 413, 'Request Entity Too Large', 'The requested entity is too large.'],
  [1040, 429, 'Rate Limit Reached', 'Too many requests were made; try again later.'],
  [1050, 500, 'Internal Server Error', "Oh bananas! We couldn't process your request."],
  [1051, 503, 'Service Unavailable', 'The service is currently unreachable; try again later.'],
  [1052, 404, 'User Soft Deleted', 'The user has been soft deleted.'],
  [1053, 410, 'User Deleted', 'The user has been deleted.'],
  [1054, 502, 'Bad Gateway Error', 'The network was unable to connect to the server.'],
  [1055, 504, 'Gateway Timeout', 'The server timed out.'],
  [1056, 400, 'Bad Request', 'Too many recipients were supplied for this message.'],
  [1057, 401, 'Authorization Error', 'The token has no grants.'],
  [1058, 403, 'Permission Error', "The user's email address must be verified first."],
  [1059, 400, 'Bad Request', 'A message cannot be sent without recipients.'],
  [1060, 400, 'Bad Request', 'The embedded body could not be saved.'],
  [1061, 405, 'Method Not Allowed', 'The HTTP method is not allowed for this resource.'],
  [1062, 400, 'Bad Request', 'The request limit for this resource was exceeded.'],
  [1063, 401, 'Authorization Error', 'The user is not authorized to perform this action.'],
];

export const errorCatalogue: ReadonlyMap<number, ErrorEntry> = new Map(
  entries.map(([id, status, name, message]) => [id, { id: String(id), status, name, message }]),
);

export type ErrorCode = number;

/** Where error `id` is documented: the service's own error page under `publicUrl` (PUBLIC_URL). */
export function errorDocsUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/docs/errors#${id}`;
}

/** A failure with a catalogue code. Routes and services throw it; the error handler renders it. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  readonly detail?: string;

  constructor(code: ErrorCode, detail?: string) {
    const entry = errorCatalogue.get(code);
    if (!entry) throw new Error(`unknown error code ${code}`);
    super(detail ?? entry.message);
    this.code = code;
    this.status = entry.status;
    this.detail = detail;
  }
}

/** The error envelope of `code`, its docs under `publicUrl`. */
export function errorBody(publicUrl: string, code: ErrorCode, detail?: string) {
  const entry = errorCatalogue.get(code)!;
  return {
    error: {
      id: entry.id,
      name: entry.name,
      docs: errorDocsUrl(publicUrl, entry.id),
      message: detail ? `${entry.message} ${detail}` : entry.message,
      http_status_code: entry.status,
    },
  };
}

/** Shorthands for the codes used everywhere. */
export const notFound = (what = 'Resource') => new ApiError(1020, `${what} not found.`);
export const badBody = (detail: string) => new ApiError(1002, detail);
export const badQuery = (detail: string) => new ApiError(1003, detail);

/** A thrown value's message (an Error's, else the value as text). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A thrown value's `code` (Node's system errors, drivers' SQL states), if it has a text one. */
export function errorCode(err: unknown): string | undefined {
  const code = err && typeof err === 'object' && 'code' in err ? err.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
