// /v3/survey_folders (reference §4.6).
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  createFolder,
  deleteFolder,
  getFolder,
  listFolders,
  renameFolder,
} from '../../../domain/surveys/folders.js';
import { NO_NUL } from '../../../domain/surveys/question-schema.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { emptyBodyIsObject, Id } from './schemas.js';

const Folder = Type.Object({
  id: Type.String(),
  title: Type.String(),
  num_surveys: Type.Integer(),
  href: Type.String(),
});
const FolderBody = Type.Object(
  { title: Type.Optional(Type.String({ pattern: NO_NUL, minLength: 1, maxLength: 250 })) },
  { additionalProperties: false },
);
const FolderParams = Type.Object({ folder_id: Id });
const tags = ['Survey folders'];

export const foldersRoutes: Routes = (app, deps: Deps) => {
  const present = (base: string, f: { id: string; title: string; num_surveys: number }) => ({
    ...f,
    href: `${base}/v3/survey_folders/${f.id}`,
  });

  app.get(
    '/survey_folders',
    {
      config: { scope: 'surveys_read' },
      schema: {
        tags,
        summary: 'The user’s survey folders',
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(Folder) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const [total, rows] = await listFolders(deps, request.auth.user.id, page.offset, page.perPage);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        rows.map((f) => present(base, f)),
      );
    },
  );

  app.post(
    '/survey_folders',
    {
      preValidation: emptyBodyIsObject,
      config: { scope: 'surveys_write' },
      schema: { tags, summary: 'Create a folder', body: FolderBody, response: { 201: Folder } },
    },
    async (request, reply) => {
      const folder = await createFolder(deps, request.auth.user.id, request.body?.title);
      return reply.code(201).send(present(baseUrl(request), folder));
    },
  );

  app.get(
    '/survey_folders/:folder_id',
    {
      config: { scope: 'surveys_read' },
      schema: { tags, summary: 'A folder', params: FolderParams, response: { 200: Folder } },
    },
    async (request) =>
      present(baseUrl(request), await getFolder(deps, request.auth.user.id, request.params.folder_id)),
  );

  app.patch(
    '/survey_folders/:folder_id',
    {
      preValidation: emptyBodyIsObject,
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Rename a folder',
        params: FolderParams,
        body: FolderBody,
        response: { 200: Folder },
      },
    },
    async (request) =>
      present(
        baseUrl(request),
        await renameFolder(deps, request.auth.user.id, request.params.folder_id, request.body?.title),
      ),
  );

  app.delete(
    '/survey_folders/:folder_id',
    {
      config: { scope: 'surveys_write' },
      schema: {
        tags,
        summary: 'Delete a folder (its surveys stay, in no folder); answers the deleted folder',
        params: FolderParams,
        response: { 200: Folder },
      },
    },
    async (request) =>
      present(baseUrl(request), await deleteFolder(deps, request.auth.user.id, request.params.folder_id)),
  );
};
