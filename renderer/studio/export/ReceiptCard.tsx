// A render's receipt: the verified file, its hash and probe facts, the verification checks and the
// findings it was rendered with.
import { useState } from 'react';
import type { ReactElement } from 'react';
import { useSession } from '../session/session-store.ts';
import type { RenderReceipt } from '../../../shared/protocol/receipt.ts';
import { formatBytes } from '../../../shared/format/bytes.ts';
import { baseName, formatSeconds, shortRevision, timeAgo } from '../ui/format.ts';
import { Icon } from '../ui/icons.tsx';
import { ExportPlayer } from './ExportPlayer.tsx';

/**
 * A long path that wraps after its separators, never inside a folder's name: each part (with the
 * separator that ends it) is one box, which only breaks inside itself when it is wider than a line.
 */
function PathText({ path }: { path: string }): ReactElement {
  const parts = path.match(/[^\\/]*[\\/]|[^\\/]+$/g) ?? [path];
  return (
    <>
      {parts.map((part, index) => (
        <span key={index} className="path-part">
          {part}
        </span>
      ))}
    </>
  );
}

export function ReceiptCard({
  receipt,
  exists = true,
  compact = false,
}: {
  receipt: RenderReceipt;
  exists?: boolean;
  compact?: boolean;
}): ReactElement {
  const bridge = useSession((s) => s.bridge);
  const [note, setNote] = useState<string | undefined>(undefined);
  // Findings and the source revision come with workspace receipts (the studio's own) only.
  const { output, options, verification, findings } = receipt;
  const copyPath = async () => {
    try {
      await navigator.clipboard.writeText(output.path);
      setNote('Path copied');
    } catch {
      setNote(`Copy failed; the path is ${output.path}`);
    }
  };
  const reveal = async () => {
    try {
      await bridge.revealInFolder(output.path);
      setNote(undefined);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <article
      className={`receipt${compact ? ' compact' : ''}`}
      data-testid="receipt"
      data-verified={verification.ok}
    >
      <header>
        <span className={`badge ${verification.ok ? 'ok' : 'error'}`} data-testid="receipt-verification">
          {verification.ok ? 'verified' : 'verification failed'}
        </span>
        <span className="receipt-name" title={output.path}>
          {baseName(output.path)}
        </span>
        {!exists && <span className="badge muted">file removed</span>}
        <span className="muted push">{timeAgo(receipt.createdAt)}</span>
      </header>
      {!compact && exists && <ExportPlayer file={output.path} />}
      {!compact && (
        <dl className="facts">
          <dt>Path</dt>
          <dd className="mono path" data-testid="receipt-path" title={output.path}>
            <PathText path={output.path} />
          </dd>
          <dt>Size</dt>
          <dd data-testid="receipt-size">{formatBytes(output.bytes)}</dd>
          <dt>SHA-256</dt>
          <dd className="mono hash" data-testid="receipt-sha256" title={output.sha256}>
            {output.sha256}
          </dd>
          <dt>Duration</dt>
          <dd data-testid="receipt-duration">
            {formatSeconds(options.durationSeconds)} · {options.frames} frames at {options.fps} fps
          </dd>
          <dt>Video</dt>
          <dd>
            {options.width}×{options.height} · {options.format} · {options.quality}
            {options.aspect ? ` · ${options.aspect}` : ''}
          </dd>
          {receipt.source.sourceRevision !== undefined && (
            <>
              <dt>Source</dt>
              <dd className="mono">rev {shortRevision(receipt.source.sourceRevision)}</dd>
            </>
          )}
          {findings && (
            <>
              <dt>Findings</dt>
              <dd>
                {findings.length === 0
                  ? 'none'
                  : `${findings.length} (${[...new Set(findings.map((f) => f.code))].join(', ')})`}
              </dd>
            </>
          )}
        </dl>
      )}
      {!compact && (
        <div className="checks" data-testid="receipt-checks">
          {verification.checks.map((check) => (
            <div key={check.name} className={`check-row${check.ok ? '' : ' bad'}`}>
              <Icon name={check.ok ? 'check' : 'cross'} size={12} />
              <span>{check.name}</span>
              <span className="mono muted">
                {check.ok ? check.actual : `expected ${check.expected}, got ${check.actual}`}
              </span>
            </div>
          ))}
        </div>
      )}
      <footer>
        <button className="btn small" onClick={() => void reveal()} disabled={!exists}>
          <Icon name="folder" size={12} /> Reveal in folder
        </button>
        <button className="btn small" onClick={() => void copyPath()} data-testid="copy-path">
          <Icon name="copy" size={12} /> Copy path
        </button>
        {note && <span className="muted note">{note}</span>}
      </footer>
    </article>
  );
}
