// How to write a Kino video spec, for a model or an agent: the "Writing a spec" part of llms.txt and
// the context every AI-authored spec is written with. Every list of names (aspects, element types and
// their fields, presets, transitions, easings, backgrounds, fonts) is read from the code that
// validates them, so the guide cannot drift from what the server accepts.
import { VARIABLE_TYPES } from '../../shared/spec/variable-schema.ts';
import { z } from 'zod';
import { PRESETS } from '../../shared/animation/presets.ts';
import type { PresetKind } from '../../shared/animation/presets.ts';
import type { SpecElement } from '../../shared/spec/elements.ts';
import { ELEMENT_KINDS } from '../../shared/spec/elements.ts';
import { AudioTrackSchema } from '../../shared/spec/audio.ts';
import { BackgroundSchema } from '../../shared/spec/background.ts';
import { elementBaseShape } from '../../shared/spec/element-base.ts';
import {
  ANIMATABLE_PROPERTIES,
  ANIMATION_PRESETS,
  AnchorSchema,
  AnimationSchema,
  DirectionSchema,
  EASING_NAMES,
  FitSchema,
  TriggerSchema,
} from '../../shared/spec/primitives.ts';
import {
  DEFAULT_BACKGROUND,
  DEFAULT_FPS,
  SceneSchema,
  TRANSITION_TYPES,
  TransitionSchema,
  VideoSpecSchema,
} from '../../shared/spec/schema.ts';
import type { TransitionType, VideoSpec } from '../../shared/spec/schema.ts';
import { ASPECTS, ASPECT_NAMES } from '../../shared/spec/sizes.ts';
import { BUNDLED_FAMILIES } from '../../shared/fonts/fonts.ts';
import type { BundledFamily } from '../../shared/fonts/fonts.ts';
import { DEFAULT_TRANSITION_SECONDS } from '../../shared/timeline/resolve.ts';

// Descriptions keyed by the code's own unions: adding a name without a description fails to compile.
const FONT_FACES: Record<BundledFamily, string> = {
  sans: 'Inter, the default',
  serif: 'Playfair Display',
  mono: 'JetBrains Mono',
  display: 'Bebas Neue, capitals only, weight 400 only',
};

const TRANSITION_NOTES: Record<TransitionType, string> = {
  cut: 'instant, no overlap',
  crossFade: 'dissolve',
  wipe: 'a hard edge sweeps in from `direction`',
  slide: 'the new scene pushes the old one out, entering from `direction`',
  zoom: 'the old scene zooms and fades out as the new one scales up',
  flip: 'a card flip: about the vertical axis for left/right, the horizontal for up/down',
  clockWipe: 'a clock hand sweeps the new scene in',
};

const ELEMENT_NOTES: Record<SpecElement['type'], string> = {
  text: 'Wraps to its width; `size` default 72, `weight` default 700, color default white; `highlight`: [{match | words, color?}] sweeps a marker behind words; animate with `typewriter` {by?, rate?, cursor?}',
  counter:
    'A number counting `from` (default 0) `to`, over `countDuration` (1.5s) after `countDelay`; `format` takes Intl.NumberFormat options (style percent|currency|unit, currency, notation compact, …), `locale`, `decimals`, `prefix`, `suffix`; styled like text; digits never jitter',
  captions:
    'Timed captions from `srt` or `vtt` (the text itself, or a project file like "asset:talk.srt") or `words` [{text, start, end}] in seconds; `style` subtitle | pop | karaoke; `position` bottom|center|top inside the safe area; `maxLines`, `maxWidth`, `offset`, `speed`, `highlightColor`; styled like text',
  image: 'Default `fit` cover; `kenBurns`: true or {zoom, direction}',
  clip: 'A video; its own audio is mixed in unless `muted`',
  rect: 'Default 200×200; `fill` is a color or a gradient {type: linear|radial, colors, angle?}',
  ellipse: 'Like rect, fitted to its box',
  line: 'From (x, y) to (x2, y2); keyframe `progress` 0→1 to draw it on',
  path: 'SVG path data `d` in `viewBox` (default 100×100), scaled to width × height',
  group: 'Children lay out inside the group box (its container when unsized); `stagger` offsets them',
  chart:
    'A `kind` bar|line|area|pie|donut|scatter chart from `labels` + `series` [{name, values (or points [[x, y]] for scatter), color?}] or `data` {src: "asset:x.csv" or .json, label?, series?, x?, y?, group?}; `stacked`, `horizontal`, `legend` top|bottom|none, `valueLabels` value|share|none, `format` (Intl.NumberFormat), `colors`; builds in over `buildDuration` (1.2s) with `stagger`; `updates` [{at, series}] tween to new values',
  code: 'Syntax-highlighted `code` (shiki): `language` (any shiki language, default text), `theme` (default github-dark), `lineNumbers`, `highlight` and `focus` ([3, "5-7"]), `window` (true or {title}); `steps` [{code, at?, highlight?, focus?}] morph token by token; type it with the `typewriter` preset',
  markdown:
    'Markdown `markdown` (headings, bold, italic, inline code, lists, quotes, links, fenced code drawn like `code`) wrapped in its box; `size` 36, `color`, `headingColor`, `accent`, `theme` for code blocks; `reveal` true or {delay, stagger, duration} shows blocks one after another',
  terminal:
    'A terminal window: `session` [{command?, output?}] typed at `typeSpeed` (18 chars/s), output printed line by line with ANSI colours (`\\u001b[32m`), `\\r` redraws a line (progress bars); scrolls when over `rows`; `window` mac|minimal|none, `theme` dark|light|dracula, `title`, `prompt`',
  arrow:
    'From `from` {x, y} to `to` {x, y}; `curve` -1..1 bends it; `head` triangle|open|dot|none at `heads` end|start|both; draws on over `enterDuration` (0.7s); keyframe `progress` to control the draw',
  callout:
    'A text box (`text` first) with a pointer to `target`: an {x, y} point or the id of another element in the scene, followed as it moves; `accent`, `background`, `color`',
  spotlight:
    'Darkens what is drawn before it except a `shape` circle|rect hole: its own box (keyframe x, y, width, height to move it) or a `target` element id with `padding`; `dim` 0.7, `feather`; list it after what it darkens and before what should stay lit',
  lowerThird:
    'A name (`name` first) and `title` in bars at the bottom left of the safe area; `style` bar|underline|boxed|minimal, `accent`; wipes in, plays backwards out',
  titleCard:
    'A `title` with `subtitle` and `kicker` above; `style` centered|left|split, `accent`, `rule`; staggered entrance, exit last line first',
  progressBar:
    'A bar filling with the video (`of` video|scene|element) or a `value` 0..1 (keyframe `progress`); spans the bottom of the safe area; `fill`, `track`, `thickness`, `label`, `showPercent`',
};

const PRESET_KINDS: Record<PresetKind, string> = {
  entrance: 'entrances (play once into place at the element start)',
  exit: 'exits (default trigger elementEnd: they finish as the element leaves)',
  emphasis: 'emphasis (plays once at the trigger, ending at rest)',
  loop: 'loops (repeat forever by default)',
  lifetime: "lifetime (span the element's life)",
};

const code = (name: string) => `\`${name}\``;
const names = (list: readonly string[]) => list.map(code).join(', ');

/** Fields of an object schema: required ones first, marked, then the optional ones. */
function fields(schema: unknown, omit: readonly string[] = []): string {
  if (!(schema instanceof z.ZodObject)) throw new Error('expected an object schema');
  const entries = Object.entries(schema.shape as Record<string, z.ZodType>).filter(
    ([key]) => !omit.includes(key),
  );
  const required = entries.filter(([, field]) => !field.safeParse(undefined).success);
  const optional = entries.filter(([, field]) => field.safeParse(undefined).success);
  return [...required.map(([key]) => `${code(key)} (required)`), ...optional.map(([key]) => code(key))].join(
    ', ',
  );
}

function discriminatorValues(field: unknown): string[] {
  if (field instanceof z.ZodLiteral) return [...field.values].map(String);
  if (field instanceof z.ZodEnum) return field.options.map(String);
  throw new Error('expected a literal or enum discriminator');
}

function backgroundLines(): string[] {
  const variants = BackgroundSchema.options.find((option) => option instanceof z.ZodDiscriminatedUnion);
  if (!variants) throw new Error('background variants not found');
  return variants.options.map((variant) => {
    const types = discriminatorValues(variant.shape.type).map((type) => `"${type}"`);
    return `- {type: ${types.join(' | ')}}: ${fields(variant, ['type'])}`;
  });
}

function elementLines(): string[] {
  // Every element has `aspects` too: said once, under Aspects.
  const base = [...Object.keys(elementBaseShape), 'aspects'];
  return ELEMENT_KINDS.map((definition) => {
    const type = definition.type as SpecElement['type'];
    return `- ${code(type)}: ${fields(definition.schema, ['type', ...base])}. ${ELEMENT_NOTES[type]}.`;
  });
}

function presetLines(): string[] {
  const kinds = Object.keys(PRESET_KINDS) as PresetKind[];
  return kinds.map((kind) => {
    // Without their default lengths: the budget of a generate call (20k tokens) has no room for them.
    const presets = ANIMATION_PRESETS.filter((preset) => PRESETS[preset].kind === kind).map(
      (preset) => `${code(preset)} (${PRESETS[preset].summary})`,
    );
    return `- ${PRESET_KINDS[kind]}: ${presets.join('; ')}`;
  });
}

function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Readable, compact JSON: a value stays on one line while it fits in `width` columns; an object whose
 * fields each fit packs them onto as few lines as it can (one element per couple of lines); anything
 * else gets one entry per line. `column` is where the value starts on its line.
 */
export function compactJson(value: unknown, indent = '', column = indent.length, width = 120): string {
  const flat = inlineJson(value);
  if (value === null || typeof value !== 'object' || column + flat.length <= width) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value.map((item) => inner + compactJson(item, inner, inner.length, width));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).map(([key, item]) => [JSON.stringify(key) + ': ', item] as const);
  const packed = entries.map(([label, item]) => label + inlineJson(item));
  if (packed.every((entry) => inner.length + entry.length + 3 <= width)) {
    const lines: string[] = [];
    let line = '{ ';
    let start = column;
    for (const [i, entry] of packed.entries()) {
      const piece = entry + (i < packed.length - 1 ? ',' : ' }');
      if (line.trim() !== '{' && start + line.length + piece.length > width) {
        lines.push(line.trimEnd());
        line = inner;
        start = 0;
      }
      line += piece + ' ';
    }
    lines.push(line.trimEnd());
    return lines.join('\n');
  }
  const body = entries.map(
    ([label, item]) => inner + label + compactJson(item, inner, inner.length + label.length, width),
  );
  return `{\n${body.join(',\n')}\n${indent}}`;
}

// A reels video: text, an image, a trigger chain and a slide transition. Typed, so it stays valid.
export const REELS_EXAMPLE: VideoSpec = {
  kinoSpec: 1,
  title: 'City weekend',
  aspect: 'reels',
  audio: [{ src: 'asset:music-loop.m4a', volume: 0.6, fadeOut: '1s', loop: true }],
  scenes: [
    {
      id: 'intro',
      duration: '3.5s',
      background: { type: 'linear', colors: ['#1e1b4b', '#0f172a'], angle: 120 },
      elements: [
        {
          type: 'text',
          id: 'title',
          text: 'City weekend',
          font: 'display',
          size: 160,
          y: 0.18,
          animate: [{ preset: 'slideFadeIn', direction: 'up' }],
        },
        {
          type: 'text',
          text: '48 hours, 12 stops',
          size: 48,
          weight: 500,
          color: '#cbd5e1',
          y: 0.3,
          animate: [{ preset: 'fadeIn', trigger: { after: 'title' } }],
        },
        {
          type: 'image',
          src: 'asset:photo-city.jpg',
          width: '100%',
          height: 700,
          y: 0.68,
          radius: 32,
          kenBurns: true,
          animate: [{ preset: 'scaleIn', amount: 0.9, delay: '300ms' }],
        },
      ],
    },
    {
      id: 'outro',
      duration: '2.5s',
      transition: { type: 'slide', direction: 'right', duration: '500ms', easing: 'snappy' },
      background: '#0f172a',
      elements: [
        {
          type: 'text',
          text: 'Book your trip',
          size: 110,
          y: 0.45,
          animate: [{ preset: 'wordByWord', stagger: '120ms' }],
        },
        {
          type: 'text',
          text: 'example.com',
          size: 44,
          color: '#fbbf24',
          y: 0.6,
          animate: [
            { preset: 'pop', trigger: { at: '1s' } },
            { preset: 'pulse', trigger: { at: '1.5s' } },
          ],
        },
      ],
    },
  ],
};

// A square video of shapes: ellipse, rect, path, line, a staggered group and a crossFade.
export const SQUARE_EXAMPLE: VideoSpec = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    {
      id: 'stat',
      duration: '3.5s',
      background: { type: 'radial', colors: ['#1f2937', '#030712'], center: { x: 0.5, y: 0.4 }, radius: 0.8 },
      elements: [
        {
          type: 'ellipse',
          width: 560,
          height: 560,
          y: 0.42,
          stroke: { color: '#38bdf8', width: 6, dash: [14, 10] },
          animate: [{ preset: 'fadeIn' }, { preset: 'spin', duration: '8s' }],
        },
        {
          type: 'rect',
          id: 'card',
          width: 380,
          height: 380,
          radius: 48,
          y: 0.42,
          fill: { type: 'linear', colors: ['#38bdf8', '#6366f1'], angle: 45 },
          animate: [{ preset: 'pop', easing: { spring: { stiffness: 180, damping: 14 } } }],
        },
        {
          type: 'text',
          text: '+42%',
          font: 'display',
          size: 150,
          y: 0.42,
          animate: [{ preset: 'fadeIn', trigger: { after: 'card' } }],
        },
        {
          type: 'path',
          d: 'M10 55 L40 85 L90 20',
          width: 110,
          height: 110,
          x: 0.9,
          y: 0.1,
          stroke: { color: '#22c55e', width: 10 },
          animate: [{ preset: 'maskWipeIn', trigger: { at: '1.2s' } }],
        },
        { type: 'text', text: 'Weekly active users', size: 56, weight: 500, y: 0.8 },
        {
          type: 'line',
          x: 0.2,
          y: 0.9,
          x2: 0.8,
          y2: 0.9,
          cap: 'round',
          stroke: { color: '#f8fafc', width: 6 },
          start: '1s',
          keyframes: {
            progress: [
              { at: 0, value: 0 },
              { at: '600ms', value: 1, easing: 'out' },
            ],
          },
        },
      ],
    },
    {
      id: 'chart',
      duration: '3s',
      transition: { type: 'crossFade', duration: '0.5s' },
      background: '#030712',
      elements: [
        {
          type: 'group',
          width: 600,
          height: 420,
          y: 0.42,
          stagger: '150ms',
          animate: [{ preset: 'slideFadeIn', direction: 'up', distance: 60 }],
          children: [
            { type: 'rect', width: 140, height: '40%', x: 0.15, y: 1, anchor: 'bottom', fill: '#6366f1' },
            { type: 'rect', width: 140, height: '70%', x: 0.5, y: 1, anchor: 'bottom', fill: '#818cf8' },
            { type: 'rect', width: 140, height: '100%', x: 0.85, y: 1, anchor: 'bottom', fill: '#38bdf8' },
          ],
        },
        {
          type: 'text',
          text: 'Growing every week',
          size: 64,
          y: 0.85,
          animate: [{ preset: 'blurIn', delay: '600ms' }],
        },
      ],
    },
  ],
};

/** The small spec in the curl example. */
export const CURL_EXAMPLE_SPEC: VideoSpec = {
  kinoSpec: 1,
  aspect: 'square',
  scenes: [{ duration: '2s', elements: [{ type: 'text', text: 'Hello', animate: [{ preset: 'pop' }] }] }],
};

/** How templates are declared, used and bound: for people and agents writing reusable specs. */
function templatesSection(): string {
  return `### Templates

A spec with \`variables\` is a template that each render fills in.
- Declare: \`"variables": {"<name>": {"type": …, "default"?, "description"?, "min"?, "max"?, "maxLength"?}}\`;
  types: ${names(VARIABLE_TYPES)}. Without a default a variable is required.
- Use: \`"{{name}}"\` inside any string, or \`{"var": "name"}\` for a whole value (a number, a colour, a media \`src\`).
- Render: pass \`variables: {"name": value}\` beside \`key\` or \`spec\`. Values are checked against the declarations,
  substituted, and the declarations dropped, so the bound spec must be valid like any other. Unknown, missing or
  mistyped values are refused by name.

`;
}

/**
 * The "Writing a spec" guide with two worked examples, in Markdown. A model authoring one video gets
 * it without the templates section (`templates: false`): it writes a concrete spec, never a template.
 */
export function specGuide(options: { templates?: boolean } = {}): string {
  const aspects = ASPECT_NAMES.map((name) => `${code(name)} ${ASPECTS[name].width}×${ASPECTS[name].height}`);
  const triggerNames = TriggerSchema.options[0].options;
  const animation = AnimationSchema.shape;
  const fonts = (Object.keys(BUNDLED_FAMILIES) as BundledFamily[]).map(
    (family) => `${code(family)} (${FONT_FACES[family]})`,
  );
  return `## Writing a spec

A spec is one JSON object; scenes play in order, elements are drawn in list order (later on top).
- Video: ${fields(VideoSpecSchema)}. Default fps ${DEFAULT_FPS}, aspect \`reels\`, background \`${DEFAULT_BACKGROUND}\`.
- Aspects: ${aspects.join(', ')}, or {width, height} (even numbers).
- Scene: ${fields(SceneSchema)}. \`audio\` here is sound effects timed from the scene start; \`hold: true\` marks a deliberate still.

### Units

- Time: seconds as a number, or a string "1.5s", "500ms", "45f" (frames). No spaces, no other units.
- Lengths (width, height, size, radius, stroke width, distance): a number is design pixels (the frame's
  shorter side is 1080), or "64px", "50%" (of the containing box on that axis), "10vw", "10vh", "5vmin", "5vmax".
- Position \`x\`/\`y\`: a number is a fraction of the containing box (0 left/top, 0.5 centre, 1 right/bottom);
  a length string ("120px", "30%") is measured from its left/top edge. Default 0.5.
- \`anchor\` (which point of the element sits at x/y; default center): ${names(AnchorSchema.options)}.
- \`box\`: ${names(elementBaseShape.box.unwrap().options)}: lay out inside the aspect's safe area (default) or the full frame.
- Colors: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla(), common names.

### Backgrounds

A color string, or one of:
${backgroundLines().join('\n')}

\`fit\`: ${names(FitSchema.options)}. \`dim\` 0..1 darkens media under text.

### Elements

Every element has ${fields(z.strictObject(elementBaseShape))}.
\`start\`/\`duration\` are from the scene start (default: the whole scene). By type (\`type\` is required):
${elementLines().join('\n')}

Top-level \`overlays\`: elements of any type over the whole video, above every scene and untouched by
transitions; \`start\`/\`duration\` count from the video start (default: all of it). Put what spans
scenes there once (captions, timed in video time; a logo; a progress bar). Their triggers count against the video; \`{after}\` and annotation targets name other overlays.

Text \`font\`: ${fonts.join(', ')}, or a family declared in the spec's \`fonts\` [{family, src, weight?, italic?}].
Missing characters (★ ✓ →, emoji) fall back to bundled fonts; for CJK text declare a CJK font.
\`weight\` is 100..900 in steps of 100; \`letterSpacing\` is in em; \`background\` is {color, paddingX?, paddingY?, radius?: length | "pill"}.

### Aspects

Text that would leave another aspect's safe area is moved inside it. An edit may add \`aspects\`
({"reels": {"x": 0.5}}) to a scene or element: its fields in that aspect.

### Animation

\`animate\`: a list of {${Object.keys(animation).join(', ')}}. Presets (what each does, its defaults in parentheses):
${presetLines().join('\n')}

- \`trigger\`: ${names(triggerNames)}, {"at": time} from the scene start, or {"after": "<id>"} when that
  element's finite animations have all finished (loops do not count; the id must be in the same scene).
- \`repeat\`: a count or "forever" (the default for loops).
- \`stagger\`: ${animation.stagger.description ?? ''}
- \`amount\`: ${animation.amount.description ?? ''}
- \`direction\`: ${names(DirectionSchema.options)}: the way it moves, a wipe's first edge, or a flip's axis.
- \`distance\`: how far it moves, in design pixels or a length ("30%" is of the frame along the motion).
- Easing: ${names(EASING_NAMES)}, {"spring": {stiffness, damping, mass}} or {"cubicBezier": [x1, y1, x2, y2]}.
- \`keyframes\` animate ${names(ANIMATABLE_PROPERTIES)}:
  {"opacity": [{"at": 0, "value": 0}, {"at": "1s", "value": 1, "easing": "out"}]}; \`at\` is from the element start, in order.

### Transitions

A scene's \`transition\` {${Object.keys(TransitionSchema.shape).join(', ')}} is how it enters over the end of
the previous scene (ignored on the first). It overlaps both scenes (default ${DEFAULT_TRANSITION_SECONDS}s) and may take at
most half of each: a longer one is refused; the video lasts the sum of the scene durations minus the overlaps. \`direction\` is the
edge the new scene comes from (default left). Types: ${TRANSITION_TYPES.map((type) => `${code(type)} (${TRANSITION_NOTES[type]})`).join(', ')}.

### Audio and media

- Audio track: ${fields(AudioTrackSchema)}. Top-level \`audio\` is timed from the video start (music),
  scene \`audio\` from the scene start (sound effects). Everything is mixed and cut to the video length.
- Sources (\`src\`): \`"asset:<path>"\` is a file in the assets folder of the server's render project
  (ask its operator which exist; the examples use those of Kino's example project). http(s) URLs work
  only for hosts the project allows.

${options.templates === false ? '' : templatesSection()}### Rules agents often get wrong

- \`"kinoSpec": 1\` (the number) is required at the top level.
- Unknown fields are rejected, everywhere: no \`fontSize\` (use \`size\`), no \`color\` on shapes (use \`fill\`), no CSS.
- Times need a unit when they are strings: \`"2"\` is invalid, \`2\` or \`"2s"\` is fine.
- \`x\`/\`y\` numbers are fractions, not pixels: write \`"120px"\` for pixels.
- Element ids start with a letter and are unique within their scene (or within the overlays).
- An element must start before its scene (or group) ends; keyframes must be in time order.
- A rect, ellipse or path with neither \`fill\` nor \`stroke\` draws nothing.
- Custom aspects need even width and height; \`display\` has only weight 400.

## Example: reels, text + image + transition

\`\`\`json
${compactJson(REELS_EXAMPLE)}
\`\`\`

## Example: square, shapes

\`\`\`json
${compactJson(SQUARE_EXAMPLE)}
\`\`\`
`;
}
