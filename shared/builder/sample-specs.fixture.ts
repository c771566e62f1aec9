// Specs for the specToCode round-trip tests: together they use every element type, preset, transition,
// background kind and easing form, plus edge cases (empty lists, awkward strings, custom sizes).
import type { VideoSpec } from '../spec/schema.ts';

const everything: VideoSpec = {
  $schema: 'https://kino.dev/schema/video-spec-v1.json',
  kinoSpec: 1,
  title: "Everything: the 'full' tour",
  fps: 30,
  aspect: 'reels',
  background: { type: 'linear', colors: ['#1e1b4b', '#0f172a'], angle: 120, animate: true },
  fonts: [{ family: 'Brand', src: 'asset:fonts/Brand.ttf', weight: 700, italic: false }],
  audio: [
    { src: 'asset:music-loop.m4a', volume: 0.6, fadeIn: '0.5s', fadeOut: '1s', loop: true },
    { src: 'asset:whoosh.wav', start: 2.5, trim: { start: '0.1s', end: '0.9s' }, duration: '800ms' },
  ],
  scenes: [
    {
      id: 'intro',
      duration: '3s',
      background: {
        type: 'radial',
        colors: ['#0f172a', '#020617'],
        stops: [0, 1],
        center: { x: 0.5, y: 0.3 },
        radius: 0.8,
      },
      audio: [{ src: 'asset:click.wav', start: '0.4s', volume: 0.8 }],
      elements: [
        {
          type: 'text',
          id: 'title',
          text: 'Launch\nday — "quoted" it\'s \\ ✨',
          font: 'display',
          weight: 800,
          italic: true,
          size: 140,
          lineHeight: 1.05,
          letterSpacing: 0.02,
          color: '#f8fafc',
          align: 'center',
          transform: 'uppercase',
          maxLines: 2,
          stroke: { color: 'rgba(0, 0, 0, 0.4)', width: 2, dash: [4, 2] },
          textShadow: { color: '#000000aa', blur: 12, x: 0, y: 4 },
          background: { color: '#6366f1', paddingX: 24, paddingY: '12px', radius: 'pill' },
          x: 0.5,
          y: 0.35,
          anchor: 'center',
          animate: [
            { preset: 'wordByWord', stagger: '80ms', duration: '0.6s', easing: 'smooth' },
            { preset: 'fadeOut', trigger: 'sceneEnd', duration: '0.4s' },
          ],
        },
        {
          type: 'text',
          text: 'Subtitle',
          font: 'sans',
          size: '4vmin',
          color: 'hsl(220, 20%, 80%)',
          y: 0.5,
          opacity: 0.9,
          animate: [
            {
              preset: 'slideFadeIn',
              direction: 'up',
              distance: '5%',
              delay: 0.3,
              trigger: { after: 'title' },
            },
          ],
          keyframes: {
            color: [
              { at: '0s', value: '#94a3b8' },
              { at: '1.5s', value: '#f8fafc', easing: 'inOut' },
            ],
            letterSpacing: [
              { at: 0, value: 0.3 },
              { at: '1s', value: 0, easing: { cubicBezier: [0.2, 0, 0, 1] } },
            ],
          },
        },
        {
          type: 'image',
          src: 'asset:photo-mountains.jpg',
          fit: 'cover',
          radius: 32,
          border: { color: '#ffffff', width: 4 },
          kenBurns: { zoom: 1.2, direction: 'left' },
          width: '80%',
          height: '30%',
          y: 0.75,
          shadow: { color: '#00000080', blur: 40, y: 20 },
          animate: [
            { preset: 'kenBurns', amount: 1.15 },
            { preset: 'maskWipeIn', direction: 'right' },
          ],
        },
      ],
    },
    {
      duration: 4,
      transition: { type: 'crossFade', duration: '0.5s', easing: 'gentle' },
      background: { type: 'image', src: 'asset:photo-city.jpg', fit: 'cover', kenBurns: true, dim: 0.35 },
      elements: [
        {
          type: 'clip',
          src: 'asset:clip-waves.mp4',
          trim: { start: '0.5s', end: '3.5s' },
          fit: 'contain',
          rate: 1.25,
          loop: true,
          muted: false,
          volume: 0.4,
          radius: '2vmin',
          border: { color: 'white', width: 2 },
          width: '90%',
          height: '40%',
          box: 'frame',
          animate: [
            { preset: 'scaleIn', easing: { spring: { stiffness: 180, damping: 12, mass: 1 } } },
            { preset: 'blurOut' },
          ],
        },
        {
          type: 'group',
          id: 'badges',
          x: 0.5,
          y: 0.8,
          width: '60%',
          height: 200,
          stagger: '0.12s',
          clip: true,
          rotation: -4,
          scale: 1.1,
          animate: [{ preset: 'pop', amount: 1.2, easing: { spring: {} } }],
          children: [
            { type: 'rect', fill: '#22c55e', radius: 24, width: '30%', height: '100%', x: 0.15 },
            {
              type: 'ellipse',
              fill: { type: 'linear', colors: ['#f59e0b', '#ef4444'], angle: 45 },
              stroke: { color: '#fff', width: 3 },
              width: 160,
              height: 160,
              animate: [{ preset: 'spin', amount: 360, repeat: 'forever', duration: '4s', easing: 'linear' }],
            },
            {
              type: 'group',
              x: 0.85,
              children: [
                {
                  type: 'path',
                  d: 'M10 10 L90 10 L50 90 Z',
                  viewBox: { width: 100, height: 100 },
                  fill: '#e2e8f0',
                },
              ],
            },
          ],
        },
      ],
    },
    {
      duration: '2.5s',
      transition: { type: 'wipe', direction: 'left', duration: '0.6s' },
      background: {
        type: 'video',
        src: 'asset:clip-waves.mp4',
        fit: 'cover',
        trim: { start: 1 },
        rate: 0.5,
        loop: true,
        dim: 0.2,
      },
      elements: [
        {
          type: 'line',
          x: 0.1,
          y: 0.5,
          x2: 0.9,
          y2: '50%',
          stroke: { color: '#38bdf8', width: 6 },
          cap: 'round',
          progress: 0,
          keyframes: {
            progress: [
              { at: 0, value: 0 },
              { at: '1.2s', value: 1, easing: 'out' },
            ],
          },
        },
        {
          type: 'rect',
          fill: '#f43f5e',
          width: '20vw',
          height: '20vw',
          start: '0.5s',
          duration: '1.5s',
          animate: [
            { preset: 'slideIn', direction: 'left' },
            { preset: 'slideOut', direction: 'right', trigger: { at: '2s' } },
            { preset: 'pulse', amount: 1.05, repeat: 3 },
          ],
        },
      ],
    },
    {
      duration: '45f',
      transition: { type: 'slide', direction: 'up' },
      background: { type: 'noise', color: '#111827', grain: 0.2, scale: 3, animated: false, seed: 7 },
      hold: true,
      elements: [
        {
          type: 'text',
          text: 'Float',
          animate: [{ preset: 'float', distance: 12 }, { preset: 'drift' }, { preset: 'blurIn' }],
        },
        {
          type: 'text',
          text: 'Out',
          y: 0.7,
          animate: [{ preset: 'scaleOut', trigger: 'elementEnd' }, { preset: 'slideFadeOut' }],
        },
      ],
    },
    {
      duration: 1,
      transition: { type: 'zoom', easing: 'back' },
      background: { type: 'color', color: '#000' },
    },
    {
      duration: 1,
      transition: { type: 'flip', duration: '0.3s' },
      elements: [{ type: 'text', text: 'Flip', animate: [{ preset: 'fadeIn' }, { preset: 'maskWipeOut' }] }],
    },
    {
      duration: 2,
      elements: [
        {
          type: 'text',
          text: 'Rise',
          y: 0.3,
          animate: [
            { preset: 'maskRevealIn', direction: 'right' },
            { preset: 'shake', trigger: { at: '1s' }, distance: 10 },
            { preset: 'maskRevealOut' },
          ],
        },
        {
          type: 'rect',
          width: 200,
          height: 120,
          fill: '#22d3ee',
          animate: [
            { preset: 'flipIn', direction: 'up' },
            { preset: 'glow', color: '#f472b6', amount: 32 },
            { preset: 'flipOut' },
          ],
        },
        {
          type: 'ellipse',
          width: 120,
          height: 120,
          y: 0.75,
          fill: '#facc15',
          animate: [
            { preset: 'rotateIn', amount: 180 },
            { preset: 'rock', repeat: 2 },
            { preset: 'rotateOut' },
          ],
        },
        { type: 'text', text: 'Drop', x: 0.2, animate: [{ preset: 'dropIn', distance: '30%' }] },
        { type: 'text', text: 'Bounce', x: 0.5, y: 0.9, animate: [{ preset: 'bounceIn', amount: 0.5 }] },
        { type: 'text', text: 'Elastic', x: 0.8, animate: [{ preset: 'elasticIn', duration: '1.2s' }] },
      ],
    },
    { duration: 1, transition: { type: 'clockWipe' } },
    { duration: 0.5, transition: { type: 'cut' } },
  ],
};

const textEffects: VideoSpec = {
  kinoSpec: 1,
  scenes: [
    {
      duration: '4s',
      elements: [
        {
          type: 'text',
          text: 'Typed out, then marked',
          y: 0.2,
          highlight: [
            { match: 'marked', color: '#fde047', textColor: '#111827', start: '1s', duration: '400ms' },
            { words: [0, 1], color: 'rgba(244, 114, 182, 0.8)' },
            { words: 2 },
          ],
          animate: [
            { preset: 'typewriter', by: 'character', rate: 24, cursor: { color: '#22d3ee', blink: false } },
          ],
        },
        {
          type: 'text',
          text: 'Word at a time',
          y: 0.3,
          animate: [{ preset: 'typewriter', by: 'word', cursor: true }],
        },
        {
          type: 'counter',
          to: 12480,
          from: 100,
          countDelay: '0.2s',
          countDuration: '2s',
          easing: { spring: { damping: 20 } },
          locale: 'de-DE',
          decimals: 1,
          format: { style: 'currency', currency: 'EUR', notation: 'compact', useGrouping: true },
          prefix: '≈ ',
          suffix: ' / yr',
          size: 140,
          weight: 900,
          y: 0.5,
        },
        {
          type: 'captions',
          srt: '1\n00:00:00,500 --> 00:00:02,000\nHi "there"\n',
          style: 'karaoke',
          position: 'top',
          maxWidth: '80%',
          maxLines: 1,
          offset: '-0.25s',
          speed: 1.5,
          highlightColor: '#22c55e',
          maxCharsPerSecond: 18,
          size: 48,
        },
        { type: 'captions', vtt: 'asset:talk.vtt', style: 'subtitle' },
        {
          type: 'captions',
          words: [
            { text: 'Pop', start: 0, end: 0.4 },
            { word: ' goes', start: 0.4, end: 0.8, probability: 0.93 },
          ],
          style: 'pop',
          maxWords: 2,
          activeScale: 1.2,
        },
      ],
    },
  ],
};

const minimal: VideoSpec = {
  kinoSpec: 1,
  aspect: { width: 1280, height: 720 },
  scenes: [{ duration: '2s' }],
};

const emptyLists: VideoSpec = {
  kinoSpec: 1,
  audio: [],
  fonts: [],
  overlays: [],
  scenes: [
    {
      duration: 2,
      audio: [],
      elements: [
        { type: 'group', children: [] },
        { type: 'group', children: [{ type: 'rect' }] },
        { type: 'rect', animate: [], keyframes: {} },
        { type: 'ellipse', keyframes: { opacity: [{ at: 0, value: 0.5 }] } },
      ],
    },
    { duration: 1, elements: [] },
  ],
};

/** Every field of the annotation and titling elements. */
const annotations: VideoSpec = {
  kinoSpec: 1,
  aspect: 'landscape',
  scenes: [
    {
      duration: '4s',
      elements: [
        {
          type: 'rect',
          id: 'card',
          x: 0.3,
          y: 0.5,
          keyframes: {
            x: [
              { at: 0, value: 0.3 },
              { at: '2s', value: 0.5 },
            ],
          },
        },
        {
          type: 'spotlight',
          target: 'card',
          shape: 'rect',
          padding: 32,
          dim: 0.6,
          color: '#020617',
          feather: '24px',
          radius: 20,
          enterDuration: '0.6s',
          exitDuration: 0,
        },
        {
          type: 'spotlight',
          shape: 'circle',
          x: 0.2,
          y: 0.3,
          width: 300,
          height: 300,
          keyframes: {
            x: [
              { at: 0, value: 0.2 },
              { at: '1s', value: 0.6, easing: 'inOut' },
            ],
          },
        },
        {
          type: 'callout',
          id: 'note',
          text: 'Follows the card',
          target: 'card',
          x: 0.75,
          y: 0.2,
          color: '#0f172a',
          background: '#ffffff',
          accent: '#f59e0b',
          font: 'serif',
          size: 30,
          weight: 500,
          radius: 12,
          padding: 18,
          enterDuration: '700ms',
          exitDuration: '0.3s',
        },
        { type: 'callout', text: 'A point', target: { x: 0.5, y: '120px' } },
        {
          type: 'arrow',
          from: { x: 0.1, y: 0.9 },
          to: { x: '640px', y: 0.6 },
          curve: -0.3,
          color: '#fbbf24',
          thickness: 5,
          dash: [18, 12],
          head: 'open',
          heads: 'both',
          headSize: 28,
          enterDuration: '0.5s',
          exitDuration: '0.2s',
        },
        { type: 'arrow', from: { x: 0.2, y: 0.2 }, to: { x: 0.3, y: 0.3 }, head: 'dot', heads: 'start' },
        {
          type: 'arrow',
          from: { x: 0.2, y: 0.2 },
          to: { x: 0.3, y: 0.4 },
          head: 'triangle',
          keyframes: {
            progress: [
              { at: 0, value: 0 },
              { at: '1s', value: 1 },
            ],
          },
        },
        { type: 'arrow', from: { x: 0.4, y: 0.2 }, to: { x: 0.5, y: 0.4 }, head: 'none', heads: 'end' },
        {
          type: 'lowerThird',
          name: 'Ada Lovelace',
          title: 'Engineer',
          style: 'underline',
          accent: '#6366f1',
          color: '#ffffff',
          background: '#0f172a',
          font: 'sans',
          size: 48,
          enterDuration: '1s',
          exitDuration: '0.5s',
        },
        { type: 'lowerThird', name: 'Bar', style: 'bar' },
        { type: 'lowerThird', name: 'Boxed', title: 'Style', style: 'boxed' },
        { type: 'lowerThird', name: 'Minimal', style: 'minimal' },
        {
          type: 'progressBar',
          of: 'scene',
          track: 'rgba(255, 255, 255, 0.2)',
          fill: '#22c55e',
          thickness: 8,
          rounded: false,
          label: 'Step 2 of 3',
          showPercent: true,
          color: '#e2e8f0',
          font: 'mono',
          enterDuration: '0.4s',
          exitDuration: '0.3s',
        },
        { type: 'progressBar', of: 'video' },
        { type: 'progressBar', of: 'element', y: 0.1 },
        {
          type: 'progressBar',
          value: 0.4,
          keyframes: {
            progress: [
              { at: 0, value: 0 },
              { at: '2s', value: 0.4 },
            ],
          },
        },
      ],
    },
    {
      duration: '3s',
      elements: [
        {
          type: 'titleCard',
          title: 'Meet "Orbit"',
          subtitle: "Your team's day, in orbit",
          kicker: 'Introducing',
          style: 'split',
          accent: '#f59e0b',
          color: '#f8fafc',
          font: 'display',
          bodyFont: 'sans',
          size: 120,
          rule: false,
          enterDuration: '1.2s',
          exitDuration: '0.6s',
        },
        { type: 'titleCard', title: 'Centered' },
        { type: 'titleCard', title: 'Left', style: 'left', kicker: 'Chapter 1' },
      ],
    },
  ],
};

const terminalSession: VideoSpec = {
  kinoSpec: 1,
  aspect: 'landscape',
  scenes: [
    {
      duration: '6s',
      elements: [
        {
          type: 'terminal',
          id: 'shell',
          title: 'zsh — "kino" \\ demo',
          window: 'mac',
          theme: 'dracula',
          prompt: '~/kino ❯ ',
          promptColor: '#bd93f9',
          cursor: { shape: 'bar', blink: false, color: '#ff79c6' },
          size: '2.5vh',
          lineHeight: 1.6,
          rows: 12,
          typeSpeed: 24,
          pause: '300ms',
          lineDelay: '40ms',
          startDelay: '0.5s',
          gap: 0.8,
          width: '80%',
          session: [
            {
              command: "npm test -- --grep 'it\\'s'",
              output: '\u001b[1;32m✓\u001b[0m 12 passed\n\u001b[38;5;208mwarn\u001b[0m 1\r\n',
              typeSpeed: 30,
              pause: '0.2s',
              lineDelay: 0,
              delay: '1s',
            },
            { output: '\u001b[38;2;10;200;30m 10%\r 60%\r100%\u001b[0m\n' },
            { command: '' },
          ],
          animate: [{ preset: 'slideFadeIn', direction: 'up' }],
        },
        { type: 'terminal', window: 'none', theme: 'light', cursor: false, session: [{ command: 'ls' }] },
        { type: 'terminal', window: 'minimal', cursor: true, session: [{ output: '' }] },
      ],
    },
  ],
};

const codeAndMarkdown: VideoSpec = {
  kinoSpec: 1,
  aspect: 'landscape',
  scenes: [
    {
      duration: '8s',
      elements: [
        {
          type: 'code',
          id: 'walkthrough',
          code: 'let total = 0;\nfor (const n of list) {\n\ttotal += n; // "sum" \\ `tick`\n}\n',
          language: 'ts',
          theme: 'one-dark-pro',
          font: 'mono',
          size: 28,
          lineHeight: 1.6,
          lineNumbers: true,
          highlight: [2, '1-3'],
          focus: ['2-2'],
          accent: '#f472b6',
          background: '#1e1e2e',
          window: { title: 'math.ts', dots: false },
          padding: '40px',
          radius: 24,
          morphDuration: '600ms',
          steps: [
            { code: 'let total = 0;\nfor (const n of list) total += n;', at: '2s', highlight: [1] },
            { code: 'const total = list.length;', at: 4, focus: [1] },
          ],
          animate: [{ preset: 'typewriter', rate: 40, cursor: { color: '#f472b6', blink: false } }],
        },
        { type: 'code', code: 'SELECT 1;', language: 'sql', window: false },
        { type: 'code', code: 'plain', window: true },
        {
          type: 'markdown',
          id: 'notes',
          markdown:
            '# What changed\n\nTypes on **both** params, *arrow* form, `export`.\n\n- one\n  - nested\n1. first\n\n> quoted [link](https://example.com)\n\n```ts\nconst x = 1;\n```\n\n---',
          font: 'serif',
          size: '3vh',
          lineHeight: 1.5,
          color: '#d1d5db',
          headingColor: '#ffffff',
          accent: '#34d399',
          theme: 'github-light',
          reveal: { delay: '0.2s', stagger: '120ms', duration: 0.4 },
        },
        { type: 'markdown', markdown: 'Plain words.', reveal: true },
      ],
    },
  ],
};

const charts: VideoSpec = {
  kinoSpec: 1,
  aspect: 'landscape',
  scenes: [
    {
      duration: '6s',
      elements: [
        {
          type: 'chart',
          kind: 'bar',
          id: 'sales',
          labels: ['Q1', 'Q2', "Q3 'late'"],
          series: [
            { name: 'North', values: [12, 18.5, -3], color: '#4c8df6' },
            { name: 'South', values: [8, 11, 14] },
          ],
          horizontal: true,
          stacked: true,
          colors: ['#f5a524', 'oklch(70% 0.15 160)'],
          color: '#0f172a',
          font: 'mono',
          size: '3vmin',
          legend: 'bottom',
          valueLabels: 'share',
          grid: false,
          min: -10,
          max: 40,
          ticks: 4,
          radius: 0,
          locale: 'de-DE',
          format: { style: 'currency', currency: 'EUR', notation: 'compact' },
          buildDelay: '0.2s',
          buildDuration: '900ms',
          stagger: 0.1,
          easing: { spring: { damping: 14 } },
          updates: [
            {
              at: '3s',
              series: [{ values: [20, 22, 5] }, { values: [9, 12, 16] }],
              duration: '1s',
              easing: 'smooth',
            },
          ],
          y: 0.4,
          animate: [{ preset: 'fadeOut', trigger: 'sceneEnd' }],
        },
        {
          type: 'chart',
          kind: 'line',
          labels: ['a', 'b'],
          series: [{ name: 'L', values: [1, 2] }],
          curve: 'step',
          lineWidth: 3,
          dots: false,
        },
        {
          type: 'chart',
          kind: 'area',
          data: { src: 'asset:data/sales.csv', label: 'month', series: ['revenue', 'cost'] },
        },
        {
          type: 'chart',
          kind: 'donut',
          labels: ['x', 'y'],
          series: [{ name: 'S', values: [1, 3] }],
          innerRadius: 0.5,
        },
        { type: 'chart', kind: 'pie', data: { src: 'data/share.json', series: ['share'] }, legend: 'none' },
        {
          type: 'chart',
          kind: 'scatter',
          series: [
            {
              name: 'P',
              points: [
                [1, 2],
                [3.5, -4],
              ],
            },
          ],
          updates: [
            {
              at: 2,
              series: [
                {
                  points: [
                    [2, 2],
                    [3, 1],
                  ],
                },
              ],
            },
          ],
        },
        {
          type: 'chart',
          kind: 'scatter',
          data: { src: 'asset:points.csv', x: 'height', y: 'weight', group: 'team' },
        },
      ],
    },
  ],
};

/** Elements over the whole video: captions on the video's clock, a logo, a progress bar, a timed badge. */
const overlays: VideoSpec = {
  kinoSpec: 1,
  aspect: 'landscape',
  scenes: [
    { duration: '3s', elements: [{ type: 'text', text: 'One' }] },
    {
      duration: '3s',
      transition: { type: 'slide', direction: 'right' },
      elements: [{ type: 'text', text: 'Two' }],
    },
  ],
  overlays: [
    {
      type: 'captions',
      srt: '1\n00:00:00,000 --> 00:00:05,000\nHello across the cut\n',
      position: 'bottom',
    },
    {
      type: 'group',
      id: 'corner',
      x: 1,
      y: 0,
      anchor: 'top-right',
      width: 160,
      height: 160,
      children: [{ type: 'image', src: 'asset:logo.png', opacity: 0.8 }],
    },
    { type: 'progressBar', y: 1, anchor: 'bottom', width: '100%', box: 'frame' },
    {
      type: 'text',
      text: 'LIVE',
      start: '1s',
      duration: '3s',
      animate: [{ preset: 'fadeIn', trigger: { after: 'corner' } }],
    },
  ],
  audio: [{ src: 'asset:music.m4a', volume: 0.5 }],
};

export const SAMPLE_SPECS: Record<string, VideoSpec> = {
  charts,
  everything,
  textEffects,
  minimal,
  emptyLists,
  annotations,
  terminalSession,
  codeAndMarkdown,
  overlays,
};

/**
 * A template spec (not a plain spec: `{var}` values only validate once bound), using each kind of
 * variable in each way: whole values, placeholders inside strings, and a placeholder alone.
 */
export const TEMPLATE_SPEC = {
  kinoSpec: 1,
  title: 'Quote by {{author}}',
  variables: {
    quote: { type: 'string', default: 'Simplicity is prerequisite for reliability.', maxLength: 200 },
    author: { type: 'string', description: 'Who said it.' },
    accent: { type: 'color', default: '#f59e0b' },
    size: { type: 'number', default: 72, min: 24, max: 160 },
    photo: { type: 'image', default: 'asset:photo-city.jpg' },
    loud: { type: 'boolean', default: false },
  },
  aspect: 'square',
  scenes: [
    {
      duration: '4s',
      background: { type: 'image', src: { var: 'photo' }, fit: 'cover', dim: 0.5 },
      elements: [
        { type: 'text', text: '“{{quote}}”', size: { var: 'size' }, color: '#ffffff', y: 0.42 },
        { type: 'text', text: '{{author}}', size: 40, color: { var: 'accent' }, y: 0.7 },
        { type: 'text', text: 'Loud: {{loud}}, {{ size }}px, `${not a variable}`', size: 20 },
      ],
    },
  ],
  overlays: [
    { type: 'text', text: '— {{author}}', size: 28, color: { var: 'accent' }, y: 0.95 },
    { type: 'image', src: { var: 'photo' }, width: 64, height: 64, x: 0.05, y: 0.05 },
  ],
} as unknown as VideoSpec;
