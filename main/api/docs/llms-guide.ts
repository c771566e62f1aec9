// The llms.txt guide served at GET /v1/docs/llms.txt: how an AI agent calls the render API, then
// how it writes a spec (main/authoring/spec-guide.ts, the same text AI authoring gives a model).
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import { FORMATS, OUTPUT_FORMATS, QUALITIES } from '../../../shared/output/formats.ts';
import { PROGRESS_STAGES } from '../../jobs/job-store.ts';
import { AI_PROVIDERS } from '../../authoring/providers.ts';
import { CURL_EXAMPLE_SPEC, specGuide } from '../../authoring/spec-guide.ts';

// The render API's own vocabulary (jobs, links, progress).
export const RENDER_VISIBILITIES = ['public', 'private'] as const;
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'canceled'] as const;

const alternatives = (list: readonly string[]) => list.join('|');

export function llmsGuide(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const formats = OUTPUT_FORMATS.map(
    (format) => `${format} (${FORMATS[format].extension}${FORMATS[format].alpha ? ', alpha' : ''})`,
  );
  const curlBody = JSON.stringify({ spec: CURL_EXAMPLE_SPEC, options: { format: 'mp4', quality: 'draft' } });

  return `# Kino render API

> Kino turns a JSON video spec into a verified video file (mp4, GIF, transparent WebM or ProRes
> .mov). You POST a spec (or a registered composition key, or a prompt), get a render job back, poll
> it until it finishes, and download the video from the link it gives you. Every spec is validated
> against one strict schema and every output is checked by ffprobe before it is stored.

## Calling the API

Base URL: ${base}. Every call needs the header \`Authorization: Bearer <API_TOKEN>\`.
Reference: \`GET ${base}/v1/schema/video-spec\` is the spec's full JSON Schema (draft 2020-12);
\`${base}/v1/docs/openapi.json\` is the OpenAPI document of this API.
MCP clients: the same renders, plus frames as images and reviews, as MCP tools at \`${base}/mcp\` when the
server has MCP_ENABLED (configs: \`${base}/v1/docs/mcp\`), or locally with \`kino mcp\` on stdio.

### Start a render: POST ${base}/v1/renders

JSON body with exactly one of:
- \`key\`: a composition key registered in the server's render project.
- \`spec\`: a video spec (see "Writing a spec").
- \`prompt\`: a natural-language description; an AI provider writes the spec, which is validated and reviewed (503 when the server has no provider).
- \`edit\`: \`{"base": "<render id>" or <spec>, "change": "<what to change>"}\`: the provider changes only what is asked (the job lists \`changes\`).
- With prompt or edit: \`provider\` (${AI_PROVIDERS.join('|')}) and \`model\`, optional.

Optional:
- \`options\`: {format: ${alternatives(OUTPUT_FORMATS)}, aspect: ${alternatives(ASPECT_NAMES)}, quality: ${alternatives(QUALITIES)}, poster: a time like "1.5s" (also store a still of that frame)}. Formats: ${formats.join(', ')}. \`aspect\` overrides the spec's.
  Leave \`options.encoder\` out unless asked for exact encoder settings: {crf (mp4 0-51, transparent 0-63), preset (x264, mp4), pixelFormat (mp4: yuv420p, yuv422p, yuv444p), audioBitrate ("64k"-"320k", mp4 and transparent), codec (mp4: libx264 or a hardware H.264 encoder the server can run)}; a setting the format does not use is 400.
- \`visibility\`: ${alternatives(RENDER_VISIBILITIES)} (default private).
- \`ttl\`: how long the result is kept: a whole number followed by s, m, h or d, e.g. "48h"; capped by the server's MAX_TTL.

The answer is \`202 Accepted\` with the job \`{id, status: "queued", expiresAt, ...}\` and \`Location: /v1/renders/{id}\`.

### Follow it: GET ${base}/v1/renders/{id}

Same bearer token. Poll every 1-2 s until \`status\` is ${TERMINAL_STATUSES.join(' | ')}.
- \`progress\`: {stage: ${alternatives(PROGRESS_STAGES)}, framesDone, framesTotal, percent, etaSeconds}.
- On success: \`video.downloadUrl\` and \`poster.downloadUrl\` (when a poster was asked for) are absolute URLs.
  Private ones carry \`?token=...\`: fetch them as they are, with no Authorization header.
- On success, \`receipt\` says how the file was made: the input files with their sha256, the resolved
  options, the toolchain versions, ffprobe's probe and each verification check (also a file at \`video.receiptUrl\`).
- \`DELETE ${base}/v1/renders/{id}\` cancels a job.

### Errors

RFC 9457 \`application/problem+json\`: {type, title, status, detail}. A 400 (invalid body or spec) adds
\`errors[]\` of {pointer, message}, one per problem, each at its JSON pointer: fix them all and resend.
401 missing or bad token; 403 bad signed link; 404 unknown job; 410 expired (past \`expiresAt\`);
413 body too large; 429 too many requests (wait \`Retry-After\` seconds); 503 AI not configured.

### Example

\`\`\`sh
ID=$(curl -sS -X POST ${base}/v1/renders \\
  -H "Authorization: Bearer $API_TOKEN" -H "Content-Type: application/json" \\
  -d '${curlBody}' | jq -r .id)
while :; do
  JOB=$(curl -sS -H "Authorization: Bearer $API_TOKEN" ${base}/v1/renders/$ID)
  case $(echo "$JOB" | jq -r .status) in ${TERMINAL_STATUSES.join('|')}) break ;; esac
  sleep 2
done
curl -sS -o video.mp4 "$(echo "$JOB" | jq -r .video.downloadUrl)"   # if it succeeded
\`\`\`

${specGuide()}`;
}
