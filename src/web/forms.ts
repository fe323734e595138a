// Small pieces every page with forms uses: the CSRF field, and an error shown beside the form
// that caused it (the field marked aria-invalid and pointing at the message).
import type { ApiError } from '../platform/errors.js';
import { type Html, html, raw } from './html.js';

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
