// The few icons the studio uses, drawn inline (no icon font to load).
import type { ReactElement } from 'react';

const paths: Record<string, ReactElement> = {
  play: <path d="M5 3.5v9l8-4.5z" fill="currentColor" />,
  pause: <path d="M4.5 3h2.5v10H4.5zM9 3h2.5v10H9z" fill="currentColor" />,
  stepBack: <path d="M4 3h1.6v10H4zM13 3.5v9L6.5 8z" fill="currentColor" />,
  stepForward: <path d="M10.4 3H12v10h-1.6zM3 3.5v9L9.5 8z" fill="currentColor" />,
  sound: (
    <path
      d="M2.5 6h2.5l3.5-3v10L5 10H2.5z M10.5 5.5a3.5 3.5 0 0 1 0 5 M12.2 3.8a6 6 0 0 1 0 8.4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
      strokeLinecap="round"
    />
  ),
  muted: (
    <path
      d="M2.5 6h2.5l3.5-3v10L5 10H2.5z M10.5 6l3.5 4 M14 6l-3.5 4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
      strokeLinecap="round"
    />
  ),
  camera: (
    <path
      d="M2.5 5.5h2.2L6 3.8h4l1.3 1.7h2.2v7h-11z M8 6.6a2.4 2.4 0 1 0 0 4.8 2.4 2.4 0 0 0 0-4.8z"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  home: (
    <path
      d="M2.5 7.5 8 3l5.5 4.5V13h-3.5V9.5h-4V13H2.5z"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  save: (
    <path
      d="M3 3h8l2 2v8H3z M5.5 3v3h4V3 M5 13V9.5h6V13"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  check: (
    <path
      d="M3.5 8.5 6.5 11.5 12.5 4.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
    />
  ),
  cross: (
    <path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
  ),
  search: (
    <path
      d="M7 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM10 10l3 3"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
    />
  ),
  film: (
    <path
      d="M2.5 3.5h11v9h-11z M5 3.5v9 M11 3.5v9 M2.5 6.5H5 M2.5 9.5H5 M11 6.5h2.5 M11 9.5h2.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
    />
  ),
  folder: (
    <path
      d="M2.5 4.5h4l1.3 1.5h5.7v6.5h-11z"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  copy: (
    <path
      d="M5.5 5.5h7v7h-7z M3.5 10.5v-7h7"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  compare: <path d="M2.5 3.5h5v9h-5z M8.5 3.5h5v9h-5z" fill="none" stroke="currentColor" strokeWidth="1.2" />,
  review: (
    <path
      d="M3 4h10M3 8h6M3 12h8 M12 9.5l1.2 1.2 2-2.4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.3"
      strokeLinecap="round"
    />
  ),
  sparkle: (
    <path
      d="M8 2.5 9.3 6.7 13.5 8 9.3 9.3 8 13.5 6.7 9.3 2.5 8 6.7 6.7z M12.5 2v2.5M11.25 3.25h2.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinejoin="round"
    />
  ),
  sliders: (
    <path
      d="M3 4.5h10M3 8h10M3 11.5h10 M6 3v3M10.5 6.5v3M5 10v3"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinecap="round"
    />
  ),
  braces: (
    <path
      d="M6 3c-1.5 0-1.8.7-1.8 2v1.3c0 .9-.5 1.5-1.5 1.7 1 .2 1.5.8 1.5 1.7V11c0 1.3.3 2 1.8 2 M10 3c1.5 0 1.8.7 1.8 2v1.3c0 .9.5 1.5 1.5 1.7-1 .2-1.5.8-1.5 1.7V11c0 1.3-.3 2-1.8 2"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinecap="round"
    />
  ),
  plus: <path d="M8 3v10M3 8h10" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />,
};

export type IconName = keyof typeof paths;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {paths[name]}
    </svg>
  );
}

export function Logo(): ReactElement {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
      <rect x="1" y="1" width="22" height="22" rx="6" fill="#7c6cff" />
      <path d="M8 6.5v11l9-5.5z" fill="#fff" />
    </svg>
  );
}
