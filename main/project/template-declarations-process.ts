// A child process that reads code compositions' template declarations, so a server lists code
// templates without running a project's code in its own process (which holds the server's
// secrets). One request (every entry to read), one reply, then it exits.
import { compositionDeclarations } from './composition-declarations.ts';
import type { CompositionDeclarations } from './composition-declarations.ts';

export type DeclarationsReply = (
  { ok: true; declarations: CompositionDeclarations } | { ok: false; message: string }
)[];

// The parent kills this process once it has the reply; leaving when the channel closes covers a
// parent that went away first.
process.once('disconnect', () => process.exit(0));

process.once('message', async (message: { entries: string[] }) => {
  const reply: DeclarationsReply = [];
  for (const entry of message.entries) {
    try {
      reply.push({ ok: true, declarations: await compositionDeclarations(entry) });
    } catch (error) {
      reply.push({ ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  }
  process.send!(reply, () => process.disconnect());
});
