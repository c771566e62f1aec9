// npm run bench:authoring: what each authoring call costs, per provider, through the real AI SDK
// provider code against the loopback stand-in (which counts prompt tokens as the provider does):
// a generate, its repair (one review finding sent back), and an edit of a two-scene spec.
// Prints the request body size, the tokens of the whole body, and the prompt tokens the provider
// counts (a local server does not count the schema, which it compiles to a grammar).
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { authorSpec } from '../authoring/author-spec.ts';
import type { AuthoringRequest } from '../authoring/author-spec.ts';
import { AI_PROVIDERS } from '../authoring/providers.ts';
import {
  TWO_SCENE_SPEC,
  editAnswer,
  startProviderStandIn,
  textScene,
} from '../authoring/provider-stand-in.fixture.ts';
import { projectContext } from '../engine/project-context.ts';
import { loadProject } from '../project/load.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';

const project = await projectContext(
  await loadProject(fileURLToPath(new URL('../../examples', import.meta.url))),
);
const standIn = await startProviderStandIn();
const tiny = { ...TWO_SCENE_SPEC, scenes: [textScene('Hello', '#101826', 12), TWO_SCENE_SPEC.scenes[1]] };

const rows: string[][] = [['provider', 'call', 'body', 'body tokens', 'prompt tokens']];
for (const name of AI_PROVIDERS) {
  const provider = { name, apiKey: 'sk-bench', baseURL: standIn.baseURL[name], model: 'bench-model' };
  const run = async (request: AuthoringRequest) => {
    const first = standIn.requests.length;
    await authorSpec({ request, provider, project, format: 'mp4' });
    return standIn.requests.slice(first).map((recorded, index) => ({
      body: JSON.stringify(recorded.body),
      prompt: standIn.promptTokens[first + index]!,
    }));
  };
  standIn.script({ json: tiny }, { json: TWO_SCENE_SPEC });
  const [generate, repair] = await run({ kind: 'prompt', prompt: 'Two scenes: Hello, then World' });
  standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#1e3a8a' }));
  const [edit] = await run({ kind: 'edit', base: TWO_SCENE_SPEC as VideoSpec, change: 'scene 2 in blue' });
  for (const [call, sent] of [
    ['generate', generate],
    ['repair', repair],
    ['edit', edit],
  ] as const) {
    rows.push([
      name,
      call,
      `${(Buffer.byteLength(sent!.body) / 1024).toFixed(1)} KiB`,
      String(countTokens(sent!.body)),
      String(sent!.prompt),
    ]);
  }
}
await standIn.close();
if (standIn.misfits.length > 0) throw new Error(standIn.misfits.join('\n'));
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
