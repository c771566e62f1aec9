// GET /source: the composition's entry file, its hash and revision. PUT /source: saves it (whole,
// by rename), refusing when someone else saved since the client read it.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Problem } from '../../http/problem.ts';
import type { WorkspaceContext } from '../context.ts';
import { SourceSaveSchema, SourceSavedSchema, SourceTextSchema } from '../../../shared/protocol/workspace.ts';
import { writeFileAtomically } from '../../fs/atomic-write.ts';
import { readSourceBytes, sha256Hex } from '../source-file.ts';

/** Larger entry files are refused: a composition that big belongs split into modules. */
export const MAX_SOURCE_BYTES = 256 * 1024;
/** JSON escaping can grow a text up to six times ("\u0001"): room for the largest source allowed. */
export const MAX_SOURCE_BODY_BYTES = MAX_SOURCE_BYTES * 6 + 4096;

const tooLarge = (what: string, bytes: number, verb: 'serves' | 'saves') =>
  new Problem(
    413,
    'source_too_large',
    `${what} is ${bytes} bytes, over the ${MAX_SOURCE_BYTES / 1024} KiB the workspace ${verb}; split the composition into modules`,
    { extensions: { bytes, limit: MAX_SOURCE_BYTES } },
  );

export function sourceRoutes(server: FastifyInstance, ctx: WorkspaceContext): void {
  const app = server.withTypeProvider<JsonSchemaToTsProvider>();
  app.get('/source', { schema: { response: { 200: SourceTextSchema } } }, async () => {
    const read = await readSourceBytes(ctx.source, MAX_SOURCE_BYTES);
    if (!read) throw new Problem(404, 'source_missing', `${ctx.source} no longer exists`);
    if ('tooLarge' in read) throw tooLarge(ctx.source, read.tooLarge, 'serves');
    const revision = await ctx.tracker.current();
    return {
      source: ctx.source,
      sourceRevision: revision.id,
      bytes: read.bytes.length,
      sha256: sha256Hex(read.bytes),
      text: read.bytes.toString('utf8'),
    };
  });

  // One save at a time: two clients that read the same hash cannot both win.
  let saving: Promise<unknown> = Promise.resolve();
  app.put(
    '/source',
    {
      schema: { body: SourceSaveSchema, response: { 200: SourceSavedSchema } },
      bodyLimit: MAX_SOURCE_BODY_BYTES,
      // Only a text far over the limit makes a body this large: say so in the source's own terms.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          throw tooLarge('the request body', MAX_SOURCE_BODY_BYTES, 'saves');
        }
        throw error;
      },
    },
    async (request) => {
      const { text, expectedSha256 } = request.body;
      const bytes = Buffer.from(text, 'utf8');
      if (bytes.length > MAX_SOURCE_BYTES) throw tooLarge('the new source', bytes.length, 'saves');
      const save = saving.then(async () => {
        if (expectedSha256 !== undefined) {
          const current = await readSourceBytes(ctx.source);
          const currentSha256 = current && 'bytes' in current ? sha256Hex(current.bytes) : null;
          if (currentSha256 !== expectedSha256) {
            throw new Problem(
              409,
              'source_conflict',
              currentSha256 === null
                ? `${ctx.source} no longer exists, so it is not the version the edit started from; read it again (GET /source) or save without expectedSha256`
                : `${ctx.source} changed since it was read (sha256 ${expectedSha256} expected, ${currentSha256} on disk): someone else saved it; read it again (GET /source) and merge`,
              { extensions: { expectedSha256, currentSha256 } },
            );
          }
        }
        const written = await writeFileAtomically(ctx.source, bytes).catch((error: unknown) => {
          throw new Problem(
            500,
            'source_write_failed',
            `could not save ${ctx.source}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
        // Not left to size, mtime and inode: the answer must carry the revision of what was written.
        ctx.tracker.invalidate(ctx.source, written);
        const revision = (await ctx.tracker.current()).id;
        ctx.runner.sourceChanged(revision);
        return revision;
      });
      saving = save.catch(() => undefined);
      return {
        source: ctx.source,
        sourceRevision: await save,
        bytes: bytes.length,
        sha256: sha256Hex(bytes),
      };
    },
  );
}
