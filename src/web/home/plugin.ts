// The home page and the survey edit pages in one scope with cookies, form bodies, CSRF protection
// and HTML error pages (a survey the user may not see is a "page not found").
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { pageErrorHandler } from '../account/frame.js';
import { collectPages } from '../collect/collect.js';
import { designPages } from '../design/edit.js';
import { quotaPages } from '../design/quotas.js';
import { themePages } from '../design/theme.js';
import { translatePages } from '../design/translate.js';
import { variablesPages } from '../design/variables.js';
import { pageArea } from '../page-area.js';
import { homePages } from './home.js';
import { notFoundPage } from './not-found.js';

function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (
    (err instanceof ApiError && err.code === 1020) ||
    (err.validation && err.validationContext === 'params')
  )
    return notFoundPage(reply, 'There is no such survey or folder among yours or those shared with you.');
  return pageErrorHandler(err, request, reply);
}

export function homeAndDesignPages(deps: Deps) {
  return pageArea(
    'home-and-design-pages',
    deps,
    [homePages, designPages, collectPages, themePages, quotaPages, translatePages, variablesPages],
    {
      errorHandler,
    },
  );
}
