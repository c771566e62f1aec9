// The docs the MCP tools serve (list_docs, search_docs, get_doc): the spec guide and its worked
// examples (the same text the authoring models and llms.txt get, generated from the schemas), how
// to use these tools, the builder API for code, and every composition of the render project.
// Searched with MiniSearch (BM25, prefix and fuzzy matching).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import MiniSearch from 'minisearch';
import * as builder from '../../shared/builder/index.ts';
import { specGuide } from '../authoring/spec-guide.ts';
import { loadProject } from '../project/load.ts';

export interface KinoDoc {
  name: string;
  title: string;
  summary: string;
  text: string;
}

/** The most of one project file a doc shows. */
const MAX_PROJECT_FILE_CHARS = 60_000;

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const firstSentence = (text: string) => {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#') && !l.startsWith('```'));
  const sentence = (line ?? '').replace(/^[-*] /, '').split(/(?<=\.)\s/)[0] ?? '';
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
};

const WORKFLOW = `# Making a video with the Kino MCP tools

1. Write a spec (get_doc "spec" is the guide; get_video_spec_schema the JSON Schema), or start from
   generate_video with a prompt when the server has an AI provider.
2. Look before you render: render_frame draws one frame as an image (give frame or time). It costs a
   fraction of a render.
3. review_video samples frames and checks them: text that overflows or is too small or too brief,
   low contrast, text drawn over other text, elements off screen or outside the safe area, blank or
   frozen frames, missing media and fonts, characters no font can draw, silent or clipping audio.
   Each finding has a remedy, the interval and the frame to inspect; for a spec, the JSON pointer of
   the element.
4. Fix what the findings say (change the spec at the pointer), then render_frame the inspect frame
   to see the fix, and review_video again until it has no findings.
5. render_video renders the spec to a verified file (ffprobe checks the codec, size, fps and frame
   count against what was asked). It waits up to MCP_WAIT_SECONDS; a longer render answers with its
   id: poll get_render. cancel_render stops it. quality "draft" is fastest for a first look.
6. To change a finished video in words, edit_video with its id (needs an AI provider): it changes
   only what you ask and lists the changed JSON pointers.

Code: a composition is TypeScript using the builder API (get_doc "code"). spec_to_code prints a spec
as such a program; validate_code type-checks one without running it. render_composition renders a
composition registered in the render project by its key (list_docs shows them as project/<key>).
`;

function codeDoc(): KinoDoc {
  const names = Object.keys(builder).sort();
  const text = `# Compositions as code: the builder API

A composition is a TypeScript module that imports from 'kino' and default-exports a video:

\`\`\`ts
import { fadeIn, scene, text, video } from 'kino';

export default video({ aspect: 'square' }, [
  scene({ duration: '2s', background: '#0f172a' }, [text('Hello', { size: 120, animate: [fadeIn()] })]),
]);
\`\`\`

Each builder takes the spec's fields as props (same names, same units), so the spec guide applies.
validate_code type-checks a composition against these typings; spec_to_code prints any spec this way.

Exports of 'kino': ${names.map((name) => `\`${name}\``).join(', ')}.
`;
  return {
    name: 'code',
    title: 'Compositions as code: the builder API',
    summary: 'How a TypeScript composition looks, and every builder it can import from kino.',
    text,
  };
}

/** The spec guide whole, each of its sections, and its worked examples. */
function guideDocs(): KinoDoc[] {
  const guide = specGuide();
  const docs: KinoDoc[] = [
    {
      name: 'spec',
      title: 'Writing a spec (the whole guide)',
      summary:
        'The video spec: units, backgrounds, elements, animation, transitions, audio, common mistakes, two examples.',
      text: guide,
    },
  ];
  for (const part of guide.split(/\n(?=#{2,3} )/)) {
    const heading = /^(#{2,3}) (.+)/.exec(part);
    if (!heading || heading[2] === 'Writing a spec') continue;
    const title = heading[2]!;
    const example = /^Example: (.+)/.exec(title);
    docs.push({
      name: example ? `example/${slug(example[1]!)}` : `spec/${slug(title)}`,
      title,
      summary: example ? `A complete spec: ${example[1]}.` : firstSentence(part.slice(heading[0].length)),
      text: part.trim(),
    });
  }
  return docs;
}

async function projectDocs(projectDir: string): Promise<KinoDoc[]> {
  const project = await loadProject(projectDir);
  const docs: KinoDoc[] = [];
  for (const [key, file] of [...project.compositions].sort(([a], [b]) => a.localeCompare(b))) {
    const source = await readFile(file, 'utf8').catch(() => undefined);
    if (source === undefined) continue;
    const kind = file.endsWith('.json') ? 'spec' : 'composition';
    const shown =
      source.length > MAX_PROJECT_FILE_CHARS ? `${source.slice(0, MAX_PROJECT_FILE_CHARS)}\n…(cut)` : source;
    docs.push({
      name: `project/${key}`,
      title: `${key}: a ${kind} of the render project (${path.basename(file)})`,
      summary:
        kind === 'spec'
          ? `A spec: render it with render_composition {"key": "${key}"}, or copy it as a starting point.`
          : `A TypeScript composition: render_composition {"key": "${key}"}; review_video {"key": "${key}"}.`,
      text: `\`\`\`${kind === 'spec' ? 'json' : 'ts'}\n${shown}\n\`\`\``,
    });
  }
  return docs;
}

export class KinoDocs {
  readonly #projectDir: string;
  readonly #fixed: KinoDoc[];

  constructor(projectDir: string) {
    this.#projectDir = projectDir;
    this.#fixed = [
      {
        name: 'mcp/workflow',
        title: 'Making a video with these tools',
        summary:
          'Write or generate a spec, look at frames, review, fix, render: the loop and which tool does what.',
        text: WORKFLOW,
      },
      ...guideDocs(),
      codeDoc(),
    ];
  }

  /** Every doc; the project's are read afresh, so a new composition shows without a restart. */
  async all(): Promise<KinoDoc[]> {
    const project = await projectDocs(this.#projectDir).catch(() => [] as KinoDoc[]);
    return [...this.#fixed, ...project];
  }

  async get(name: string): Promise<KinoDoc | undefined> {
    return (await this.all()).find((doc) => doc.name === name);
  }

  /** The best matches for `query`, with the passage around the first matched term. */
  async search(query: string, limit = 8) {
    // The whole guide is the sum of its sections: searching the sections points at the right one.
    const docs = (await this.all()).filter((doc) => doc.name !== 'spec');
    const index = new MiniSearch<KinoDoc>({
      idField: 'name',
      fields: ['title', 'text', 'name'],
      // Words only: Markdown's backticks and asterisks are not part of a term.
      tokenize: (text) => text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean),
      searchOptions: {
        boost: { title: 2, name: 2 },
        prefix: true,
        fuzzy: 0.2,
        // A project's code mentions every field name; the guide explains them.
        boostDocument: (name) => (name.startsWith('project/') ? 0.3 : 1),
      },
    });
    index.addAll(docs);
    const byName = new Map(docs.map((doc) => [doc.name, doc]));
    return index
      .search(query)
      .slice(0, limit)
      .map((hit) => {
        const doc = byName.get(hit.id as string)!;
        return {
          name: doc.name,
          title: doc.title,
          summary: doc.summary,
          score: Number(hit.score.toFixed(3)),
          excerpt: excerpt(doc.text, hit.terms),
        };
      });
  }
}

function excerpt(text: string, terms: readonly string[]): string {
  const lower = text.toLowerCase();
  const at = terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((index) => index >= 0)
    .sort((a, b) => a - b)[0];
  if (at === undefined) return text.slice(0, 240);
  const start = Math.max(0, at - 100);
  return `${start > 0 ? '…' : ''}${text.slice(start, at + 200).trim()}${at + 200 < text.length ? '…' : ''}`;
}
