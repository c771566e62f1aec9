// Generate on Home: a prompt, authored into a spec by the host's AI provider (the same authoring as
// `kino generate`), written as a new specs/<name>.json in the project, then opened. Without a
// provider the card stays, and says which environment variables enable it.
import { useEffect, useState } from 'react';
import type { ReactElement } from 'react';
import { MAX_PROMPT_CHARS } from '../../../shared/studio/authoring.ts';
import { isDirty, useSource } from '../editor/source-store.ts';
import { describeError, useSession } from '../session/session-store.ts';
import { Icon } from '../ui/icons.tsx';
import { AuthoringProgress } from './AuthoringProgress.tsx';
import { useWords } from './words-store.ts';

export function GenerateCard(): ReactElement {
  const bridge = useSession((s) => s.bridge);
  const availability = useWords((s) => s.availability);
  const loadAvailability = useWords((s) => s.loadAvailability);
  const job = useWords((s) => (s.job?.kind === 'generate' ? s.job : undefined));
  const error = useWords((s) => s.error);
  const run = useWords((s) => s.run);
  const [prompt, setPrompt] = useState('');
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | undefined>(undefined);

  useEffect(() => {
    void loadAvailability();
  }, [loadAvailability]);

  const running = job?.state === 'running';
  const configured = availability?.configured === true;
  const written = job?.state === 'done' ? job.written : null;

  const open = async (file: string) => {
    if (isDirty(useSource.getState()) && !window.confirm('Discard the unsaved changes to this composition?'))
      return;
    setOpening(true);
    setOpenError(undefined);
    try {
      const outcome = await bridge.openFile(file);
      // 'navigate' and 'opened' load another page: stay busy until it does.
      if (outcome.kind === 'canceled') setOpening(false);
      if (outcome.kind === 'opened' && bridge.mode === 'browser') {
        setOpening(false);
        useSession.getState().setWelcomeOpen(false);
      }
    } catch (caught) {
      setOpenError(describeError(caught));
      setOpening(false);
    }
  };

  return (
    <section className="welcome-card words-card" aria-labelledby="generate-title" data-testid="generate">
      <h2 id="generate-title">
        <Icon name="sparkle" size={14} /> Generate with words
      </h2>
      <form
        className="words-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (prompt.trim()) void run({ kind: 'generate', prompt: prompt.trim() });
        }}
      >
        <textarea
          className="input words-prompt"
          rows={3}
          maxLength={MAX_PROMPT_CHARS}
          placeholder="A 10-second launch teaser for Nimbus, a weather app: three scenes, bold type, deep blue"
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          aria-label="What the video should show"
          aria-describedby="generate-provider"
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey))
              event.currentTarget.form?.requestSubmit();
          }}
        />
        <div className="row gap">
          <span
            id="generate-provider"
            className={configured ? 'muted' : 'notice warn words-unavailable'}
            data-testid="generate-provider"
          >
            {availability === undefined
              ? 'Checking for an AI provider…'
              : configured
                ? `${availability.message}; the spec is written to specs/ and reviewed before you see it.`
                : `${availability.message}.`}
          </span>
          <button
            className="btn primary push"
            type="submit"
            disabled={!configured || running || !prompt.trim()}
          >
            <Icon name="sparkle" size={12} /> Generate
          </button>
        </div>
      </form>
      {error && <div className="notice err">{error}</div>}
      {job && <AuthoringProgress job={job} />}
      {written && (
        <div className="row gap words-written" data-testid="generate-written">
          <span>
            Written to <span className="mono">{written.relative}</span>
          </span>
          <button
            className="btn primary push"
            onClick={() => void open(written.path)}
            disabled={opening}
            data-testid="generate-open"
          >
            <Icon name="film" size={12} /> Open {written.relative}
          </button>
        </div>
      )}
      {openError && (
        <div className="notice err" data-testid="generate-open-error">
          {openError}
        </div>
      )}
    </section>
  );
}
