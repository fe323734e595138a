// Small pieces every page with forms uses: the CSRF field, an error shown beside the form that
// caused it (the field marked aria-invalid and pointing at the message), and the plumbing of a
// survey's manage-token pages (edit, collect): sign-in, access, CSRF, and redirect-or-re-render.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import type { Deps } from '../context.js';
import type { User } from '../domain/accounts/users.js';
import { managedSurvey, requireSurvey, type SurveyArea, type SurveyRow } from '../domain/surveys/access.js';
import { releaseUpload } from '../domain/uploads/admission.js';
import { ApiError } from '../platform/errors.js';
import type { Plan } from '../platform/plans.js';
import { sendPage } from './account/frame.js';
import { type Html, html, raw } from './html.js';
import type { PageApp } from './page-area.js';
import { currentUser, formField, loginUrl } from './session.js';
import { planOf } from './typed.js';
import { admitUploadRequest, csrfRefusal, readMultipart } from './uploads.js';

/** A page's error state: the error and the id of the form it belongs to. */
export interface FormErrorState {
  error?: ApiError;
  errorAt?: string;
}

export function hidden(csrf: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

/** aria-invalid and a reference to the error message, for the first field of the form `at`. */
export function invalidIf(state: FormErrorState, at: string): Html {
  return state.error && state.errorAt === at
    ? raw(` aria-invalid="true" aria-describedby="${at}-error"`)
    : html``;
}

export function errorFor(state: FormErrorState, at: string): Html {
  return state.error && state.errorAt === at
    ? html`<p role="alert" class="error" id="${at}-error">${state.error.detail ?? state.error.message}</p>`
    : html``;
}

/**
 * The top of a manage-token page: the notice after a change, an error whose form is not on the page,
 * and for a visitor who may only read, why there are no forms (`what` they may view).
 */
export function pageMessages(
  state: FormErrorState & { notice?: string },
  writable: boolean,
  what: string,
): Html {
  return html`${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''}
${state.error && !state.errorAt ? html`<p role="alert" class="error">${state.error.detail ?? state.error.message}</p>` : ''}
${writable ? '' : html`<p class="notice readonly" role="status">You can view this survey's ${what}, but your access to it does not allow changes.</p>`}`;
}

/** The notice after a change, or the error of a failed one (the workspace pages: team, contacts). */
export function messages(notice: string | undefined, error: ApiError | undefined): Html {
  return html`${notice ? html`<p class="notice ok" role="status">${notice}</p>` : ''}${
    error
      ? html`<p class="notice danger" role="alert" id="form-error">${error.detail ?? error.message}</p>`
      : ''
  }`;
}

/** A form body: the CSRF token (`_csrf`) and the given fields, nothing else. */
export function formBody<F extends TProperties>(fields: F) {
  return Type.Object({ _csrf: Type.String({ maxLength: 200 }), ...fields }, { additionalProperties: false });
}

/** An optional text field of a form body, at most `max` characters. */
export const formText = (max: number) => Type.Optional(Type.String({ maxLength: max }));

const ManagedQuery = Type.Object({
  sm: Type.Optional(Type.String({ maxLength: 100 })),
  done: Type.Optional(Type.String({ maxLength: 40 })),
  /** The item whose edit form is open (e.g. a question on the edit page). */
  open: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
  /** The count a notice tells (e.g. how many rules a deletion cleared). */
  n: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
});

/** A survey page named by its manage token (`?sm=`), with the state it renders. */
export interface ManagedPage<S extends FormErrorState & { notice?: string }> {
  /** The area whose access the page needs: read to see it, write to post its forms. */
  area: SurveyArea;
  /** The page's URL for a token (it has a query, so `&done=` can follow). */
  url: (token: string) => string;
  /** The notice shown after a change, by the `done` the change redirected with (and its count). */
  notices: Record<string, string | ((n: number) => string)>;
  render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    survey: SurveyRow,
    token: string,
    state: S,
  ): Promise<string>;
}

/** The signed-in user as the domain services' actor. */
export interface FormActor {
  user: User;
  plan: Plan;
  ip: string | null;
}

/** What a form post did: the notice to show (`done`) and the element to scroll to. */
export interface FormDone {
  done: string;
  anchor?: string;
  /** The item whose edit form the page opens (its `?open=`). */
  open?: string;
  /** A count for the notice (its `?n=`). */
  count?: number;
}

/** The request of a managed post, its body and params typed from the post's schemas. */
export interface FormRequest<B extends TProperties, P extends TSchema> extends FastifyRequest {
  body: Static<TObject<B>> & { _csrf: string };
  params: Static<P>;
}

export interface ManagedPost<S, B extends TProperties = TProperties, P extends TSchema = TObject> {
  path: string;
  /** The form's fields (besides `_csrf`). */
  body: B;
  params?: P;
  /** What the post did, or a page to show instead (e.g. the no-JS confirmation of a deletion). */
  action(
    request: FormRequest<B, P>,
    survey: SurveyRow,
    actor: FormActor,
    reply: FastifyReply,
  ): Promise<FormDone | { markup: string }>;
  /** The page state that shows `error` (beside the form that failed). */
  failed(request: FormRequest<B, P>, error: ApiError): S;
  /** A form that may carry files (multipart): read only once sign-in, write access, the upload's
   * admission and the form's CSRF token (its first field) have allowed it (web/uploads.ts). The
   * body the action sees has the fields and, under a file part's name, what `receive` made of it. */
  upload?: ManagedUpload;
}

export interface ManagedUpload {
  /** The largest body the form can need. */
  maxBytes: number;
  /** Receives one file part of an allowed post (read to its end). */
  receive(part: MultipartFile): Promise<unknown>;
  /** Forgets what `receive` made that the action did not keep (after every post). */
  discard(received: unknown[]): Promise<void>;
}

/** GET of a manage-token page: signed-out visitors go to sign-in, then read access decides. */
export function managedPage<S extends FormErrorState & { notice?: string }>(
  app: PageApp,
  deps: Deps,
  path: string,
  page: ManagedPage<S>,
): void {
  app.get(path, { schema: { hide: true, querystring: ManagedQuery } }, async (request, reply) => {
    const query = request.query;
    const token = query.sm ?? '';
    const user = await currentUser(deps, request);
    if (!user) return reply.redirect(loginUrl(page.url(token)), 303);
    const survey = await managedSurvey(deps, { user }, token, page.area, 'read');
    const entry = query.done ? page.notices[query.done] : undefined;
    const notice = typeof entry === 'function' ? entry(Number(query.n ?? 0)) : entry;
    return sendPage(reply, await page.render(request, reply, user, survey, token, { notice } as S));
  });
}

/**
 * A form post on a manage-token page: CSRF, sign-in, write access, the action, then a 303 back to
 * the page with its notice; an ApiError re-renders the page (as it is now) with the error.
 */
export function managedFormPost<
  S extends FormErrorState & { notice?: string },
  B extends TProperties,
  P extends TSchema = TObject,
>(app: PageApp, deps: Deps, page: ManagedPage<S>, post: ManagedPost<S, B, P>): void {
  const body = Type.Object(
    { _csrf: Type.String({ maxLength: 200 }), ...post.body },
    { additionalProperties: false },
  );
  if (post.upload) {
    managedUploadPost(app, deps, page, post, post.upload, body);
    return;
  }
  app.post(
    post.path,
    {
      schema: {
        hide: true,
        querystring: ManagedQuery,
        ...(post.params ? { params: post.params } : {}),
        body,
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const token = request.query.sm ?? '';
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(page.url(token)), 303);
      const survey = await managedSurvey(deps, { user }, token, page.area, 'write');
      return runManagedPost(deps, page, post, request, reply, user, survey, token);
    },
  );
}

/** The post's action, then a 303 back to the page with its notice, or the page with its error. */
async function runManagedPost<
  S extends FormErrorState & { notice?: string },
  B extends TProperties,
  P extends TSchema,
>(
  deps: Deps,
  page: ManagedPage<S>,
  post: ManagedPost<S, B, P>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
): Promise<FastifyReply> {
  const actor = { user, plan: planOf(user), ip: request.ip ?? null };
  // The route's schemas (or, for an upload, the same check on the fields read) validated the body
  // and params before this runs.
  const form = request as FormRequest<B, P>;
  try {
    const result = await post.action(form, survey, actor, reply);
    if ('markup' in result) return sendPage(reply, result.markup);
    const { done, anchor, open, count } = result;
    const query = `&done=${done}${open ? `&open=${open}` : ''}${count ? `&n=${count}` : ''}`;
    return reply.redirect(`${page.url(token)}${query}${anchor ? `#${anchor}` : ''}`, 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The survey as it is now (the change may have failed half-way through validation, not through writing).
    const fresh = await requireSurvey(deps, { user }, survey.id, page.area, 'read');
    const markup = await page.render(request, reply, user, fresh, token, post.failed(form, err));
    return sendPage(reply, markup, Math.min(err.status, 500));
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A managed upload post's signed-in user and survey, found before its body is read. */
    managedUpload?: { user: User; survey: SurveyRow; token: string; received: unknown[] };
  }
}

/**
 * A managed post whose form may carry files. Sign-in, write access and the upload's admission run
 * in a preHandler, before the body is read (a multipart body is read only by the handler); the
 * CSRF token is checked on the fields before the first file part, and a post without a valid one
 * is drained unread and refused as every form is (403), its declared bytes given back.
 */
function managedUploadPost<
  S extends FormErrorState & { notice?: string },
  B extends TProperties,
  P extends TSchema,
>(
  app: PageApp,
  deps: Deps,
  page: ManagedPage<S>,
  post: ManagedPost<S, B, P>,
  upload: ManagedUpload,
  body: TSchema,
): void {
  app.post(
    post.path,
    {
      schema: { hide: true, querystring: ManagedQuery, ...(post.params ? { params: post.params } : {}) },
      preHandler: async (request, reply) => {
        const token = request.query.sm ?? '';
        const user = await currentUser(deps, request);
        if (!user) return reply.redirect(loginUrl(page.url(token)), 303);
        const survey = await managedSurvey(deps, { user }, token, page.area, 'write');
        if (request.isMultipart()) await admitUploadRequest(deps, request, reply, user.id, upload.maxBytes);
        request.managedUpload = { user, survey, token, received: [] };
      },
      // what the action did not keep goes before the answer does
      onSend: async (request, _reply, payload) => {
        const received = request.managedUpload?.received ?? [];
        if (received.length) await upload.discard(received.splice(0));
        return payload;
      },
    },
    async (request, reply) => {
      const { user, survey, token } = request.managedUpload!;
      let received: Received[] = [];
      const done = request.managedUpload!.received;
      try {
        if (request.isMultipart()) {
          const read = await readMultipart(request, {
            allowed: (fields) => csrfRefusal(app, request, fields._csrf) === null,
            receive: async (part) => ({ field: part.fieldname, value: await upload.receive(part) }),
            discard: (items) => upload.discard(items.map((i) => i.value)),
          });
          received = read.items;
          done.push(...received.map((i) => i.value));
          if (read.refused) {
            if (request.uploadReservation) await releaseUpload(deps, request.uploadReservation);
            throw csrfRefusal(app, request, read.fields._csrf);
          }
          request.body = { ...read.fields, ...Object.fromEntries(received.map((i) => [i.field, i.value])) };
        } else {
          const refusal = csrfRefusal(app, request, formField(request.body, '_csrf'));
          if (refusal) throw refusal;
        }
        if (!request.compileValidationSchema(body)(request.body))
          throw new ApiError(1002, 'Some fields of the form are missing or invalid.');
        return await runManagedPost(deps, page, post, request, reply, user, survey, token);
      } finally {
        // the answer's onSend discards them first; this covers a post that threw before it
        if (done.length) await upload.discard(done.splice(0));
      }
    },
  );
}

interface Received {
  field: string;
  value: unknown;
}
