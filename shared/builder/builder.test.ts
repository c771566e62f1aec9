import { describe, expect, it } from 'vitest';
import { ELEMENT_KINDS } from '../spec/elements.ts';
import { ANIMATION_PRESETS, AnimationSchema, EasingSchema } from '../spec/primitives.ts';
import { TRANSITION_TYPES, TransitionSchema } from '../spec/schema.ts';
import { TIME_PATTERN, timeToSeconds } from '../spec/time.ts';
import { parseSpec } from '../spec/validate.ts';
import * as kino from './index.ts';
import {
  crossFade,
  cubicBezier,
  custom,
  fadeIn,
  float,
  frames,
  group,
  image,
  keyframes,
  line,
  ms,
  music,
  pop,
  rect,
  scene,
  seconds,
  sfx,
  spring,
  text,
  video,
} from './index.ts';

const api = kino as unknown as Record<string, unknown>;

describe('generated helpers', () => {
  it('exports a builder for every registered element type, under its registry name', () => {
    for (const definition of ELEMENT_KINDS) {
      const builder = api[definition.builder.name];
      expect(builder, definition.type).toBe(kino.elementBuilders[definition.builder.name]);
    }
  });

  it('builds each element type with its positional field and children as the registry says', () => {
    for (const definition of ELEMENT_KINDS) {
      const { name, positional, children } = definition.builder;
      const builder = api[name] as (...args: unknown[]) => kino.KinoElement;
      const model = (children
        ? builder({ x: 0.5 }, [text('child')])
        : positional
          ? builder('value', { x: 0.5 })
          : builder({ x: 0.5 })
      ).toModel() as unknown as Record<string, unknown>;
      expect(model.type).toBe(definition.type);
      expect(model.x).toBe(0.5);
      if (positional) expect(model[positional]).toBe('value');
      if (children) expect(model.children).toEqual([{ type: 'text', text: 'child' }]);
    }
  });

  it('exports one helper per animation preset, giving a schema-valid animation', () => {
    for (const preset of ANIMATION_PRESETS) {
      const helper = api[preset] as kino.AnimationHelper;
      expect(helper, preset).toBeTypeOf('function');
      expect(helper()).toEqual({ preset });
      const animation = helper({ duration: '1s', delay: 0.2, easing: 'smooth', repeat: 2 });
      expect(animation).toEqual({ preset, duration: '1s', delay: 0.2, easing: 'smooth', repeat: 2 });
      expect(AnimationSchema.safeParse(animation).success).toBe(true);
    }
  });

  it('exports one helper per transition type, giving a schema-valid transition', () => {
    for (const type of TRANSITION_TYPES) {
      const helper = api[type] as kino.TransitionHelper;
      expect(helper, type).toBeTypeOf('function');
      const transition = helper({ duration: '0.4s', direction: 'left' });
      expect(transition).toEqual({ type, duration: '0.4s', direction: 'left' });
      expect(TransitionSchema.safeParse(transition).success).toBe(true);
    }
  });
});

describe('element values', () => {
  it('hold exactly the spec shape: no methods or undefined fields in the model', () => {
    const value = text('Hello', { size: 120, y: 0.4, color: undefined });
    const model = value.toModel();
    expect(Object.keys(model)).toEqual(['type', 'text', 'size', 'y']);
    expect(JSON.parse(JSON.stringify(value))).toEqual({ type: 'text', text: 'Hello', size: 120, y: 0.4 });
    expect(Object.getPrototypeOf(model)).toBe(Object.prototype);
  });

  it('chain into new values and leave the original unchanged', () => {
    const base = rect({ fill: '#fff' });
    const animated = base.animate(fadeIn({ duration: '0.5s' })).animate(float());
    const timed = animated.at('1s').for(2);
    expect(base.toModel()).toEqual({ type: 'rect', fill: '#fff' });
    expect(animated.toModel().animate).toEqual([{ preset: 'fadeIn', duration: '0.5s' }, { preset: 'float' }]);
    expect(timed.toModel()).toMatchObject({ start: '1s', duration: 2 });
    expect(animated.toModel().start).toBeUndefined();
  });

  it('merge keyframes per property, a later property replacing an earlier one', () => {
    const value = rect()
      .keyframes({ opacity: keyframes([0, 0], ['1s', 1]), x: keyframes([0, 0.2]) })
      .keyframes({ x: keyframes([0, 0.8, 'snappy']) });
    expect(value.toModel().keyframes).toEqual({
      opacity: [
        { at: 0, value: 0 },
        { at: '1s', value: 1 },
      ],
      x: [{ at: 0, value: 0.8, easing: 'snappy' }],
    });
  });

  it('merge overrides per aspect with .aspect(), keeping the other aspects', () => {
    const value = text('Sound that fills the room', { size: 120, aspects: { square: { size: 100 } } })
      .aspect('reels', { x: 0.5, width: 900 })
      .aspect('reels', { size: 72 });
    expect(value.toModel().aspects).toEqual({
      square: { size: 100 },
      reels: { x: 0.5, width: 900, size: 72 },
    });
    const spec = video({ aspect: 'landscape' }, [
      scene({ duration: 2, aspects: { reels: { background: '#000000' } } }, [
        value,
        rect().aspect('square', {}),
      ]),
    ]);
    expect(parseSpec(JSON.parse(JSON.stringify(spec)))).toMatchObject({ ok: true });
  });

  it('replace and remove fields with .with()', () => {
    const value = image('asset:a.jpg', { radius: 32, fit: 'contain' }).with({
      radius: undefined,
      width: '80%',
    });
    expect(value.toModel()).toEqual({ type: 'image', src: 'asset:a.jpg', fit: 'contain', width: '80%' });
  });

  it('cannot be changed through the model they hand out', () => {
    const value = text('Hi', { size: 10 });
    const model = value.toModel();
    model.size = 99;
    expect(value.toModel().size).toBe(10);
  });

  it('accept group children as builder values or plain elements, with or without props', () => {
    const withProps = group({ x: 0.3, stagger: '0.1s' }, [text('a'), { type: 'ellipse', fill: 'red' }]);
    expect(withProps.toModel()).toEqual({
      type: 'group',
      x: 0.3,
      stagger: '0.1s',
      children: [
        { type: 'text', text: 'a' },
        { type: 'ellipse', fill: 'red' },
      ],
    });
    expect(group([rect()]).toModel()).toEqual({ type: 'group', children: [{ type: 'rect' }] });
  });

  it('keep a custom element draw function as it is', () => {
    const draw = () => {};
    const model = custom({ width: '50%' }, draw).toModel();
    expect(model).toEqual({ type: 'custom', width: '50%', draw });
    expect(model.draw).toBe(draw);
    expect(custom(draw).toModel()).toEqual({ type: 'custom', draw });
  });

  it('give one-line errors for misuse that TypeScript would catch in an editor', () => {
    const untyped = api as Record<string, (...args: unknown[]) => unknown>;
    expect(() => untyped.text!()).toThrow('text(): the first argument (text) is required');
    expect(() => untyped.group!({ x: 1 }, 'nope')).toThrow('group(): expected an array of child elements');
    expect(() => untyped.rect!('big')).toThrow('rect(): expected a props object');
    expect(() => untyped.custom!({ x: 1 })).toThrow('custom(): expected a draw function');
    expect(() => untyped.scene!({ duration: 1 }, [42])).toThrow('expected an element');
  });
});

describe('video and scene', () => {
  it('produce a plain model that validates as a spec and survives JSON', () => {
    const model = video(
      { fps: 30, aspect: 'reels', background: '#0b0d12' },
      [
        scene({ duration: '3s', audio: [sfx('asset:whoosh.wav', { volume: 0.5 })] }, [
          text('Hello', { size: 120, y: 0.4 }).animate(fadeIn({ duration: '0.8s' }), float()),
          line({ x: 0.1, y: 0.5, x2: 0.9, y2: 0.5, stroke: { color: '#fff', width: 4 } }),
        ]),
        scene({ duration: '2s', transition: crossFade({ duration: '0.5s' }) }),
      ],
      { audio: [music('asset:music.m4a', { volume: 0.6, fadeOut: '1s' })] },
    );
    expect(model.kinoSpec).toBe(1);
    expect(model.scenes[1]).toEqual({ duration: '2s', transition: { type: 'crossFade', duration: '0.5s' } });
    expect(model.audio).toEqual([{ src: 'asset:music.m4a', volume: 0.6, fadeOut: '1s' }]);
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
    const parsed = parseSpec(model);
    expect(parsed.ok).toBe(true);
  });

  it('keeps an empty element list apart from no list, as a JSON spec would', () => {
    expect(scene({ duration: 1 }, [])).toEqual({ duration: 1, elements: [] });
    expect('elements' in scene({ duration: 1 })).toBe(false);
  });

  it('adds the extras after the audio and fonts given in the props', () => {
    const model = video({ audio: [music('asset:a.m4a')] }, [scene({ duration: 1 })], {
      audio: [music('asset:b.m4a')],
    });
    expect(model.audio?.map((track) => track.src)).toEqual(['asset:a.m4a', 'asset:b.m4a']);
  });

  it('takes overlays over the whole video in the extras, as builder values or plain elements', () => {
    const model = video({ aspect: 'landscape' }, [scene({ duration: 2 }), scene({ duration: 2 })], {
      overlays: [text('Live', { x: 0.9, y: 0.1 }).at('1s'), { type: 'rect', fill: '#ff0000' }],
    });
    expect(model.overlays).toEqual([
      { type: 'text', text: 'Live', x: 0.9, y: 0.1, start: '1s' },
      { type: 'rect', fill: '#ff0000' },
    ]);
    expect(parseSpec(model)).toMatchObject({ ok: true });
    expect('overlays' in video({}, [scene({ duration: 1 })])).toBe(false);
    const untyped = video as unknown as (props: object, scenes: unknown[], extras: object) => unknown;
    expect(() => untyped({}, [], { overlays: text('x') })).toThrow('expected an array of overlay elements');
  });
});

describe('time, easing and audio helpers', () => {
  it('write spec times that mean the given amounts', () => {
    expect(seconds(1.5)).toBe('1.5s');
    expect(ms(250)).toBe('250ms');
    expect(frames(45)).toBe('45f');
    for (const time of [seconds(0), seconds(1 / 3), ms(0.5), frames(1e-7), seconds(12)]) {
      expect(time).toMatch(TIME_PATTERN);
    }
    expect(timeToSeconds(seconds(1 / 3), 30)).toBeCloseTo(1 / 3, 6);
    expect(timeToSeconds(frames(45), 30)).toBe(1.5);
    expect(() => seconds(-1)).toThrow('seconds(-1)');
    expect(() => ms(Number.NaN)).toThrow(RangeError);
  });

  it('make schema-valid easings', () => {
    expect(spring({ stiffness: 180, damping: 12 })).toEqual({ spring: { stiffness: 180, damping: 12 } });
    expect(spring()).toEqual({ spring: {} });
    expect(cubicBezier(0.2, 0, 0, 1)).toEqual({ cubicBezier: [0.2, 0, 0, 1] });
    for (const easing of [spring({ mass: 2 }), cubicBezier(0.4, -0.5, 0.6, 1.5)]) {
      expect(EasingSchema.safeParse(easing).success).toBe(true);
    }
    expect(pop({ easing: spring({ damping: 8 }) })).toEqual({
      preset: 'pop',
      easing: { spring: { damping: 8 } },
    });
  });

  it('make audio tracks with the source first', () => {
    expect(sfx('asset:click.wav', { start: '0.5s' })).toEqual({ src: 'asset:click.wav', start: '0.5s' });
    expect(Object.keys(music('asset:m.m4a', { loop: true }))).toEqual(['src', 'loop']);
  });
});
