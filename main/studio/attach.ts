// `kino studio --attach <descriptor>`: the studio of a workspace that is already running (started by
// `kino workspace`, see workspace-studio.ts), found through its descriptor and reached with its own
// endpoint and token. Nothing new is started: the link opens that workspace's studio.
import path from 'node:path';
import type { WorkspaceConnection } from '../../shared/studio/bridge.ts';
import { runningWorkspace } from '../workspace/descriptor.ts';
import { StudioInputError } from './errors.ts';

/** The running workspace `descriptorFile` describes, once it has answered as a studio. */
export async function attachToWorkspace(descriptorFile: string): Promise<WorkspaceConnection> {
  const file = path.resolve(descriptorFile);
  const descriptor = await runningWorkspace(file);
  if (!descriptor) {
    throw new StudioInputError(
      'workspace_not_running',
      `${file} names no running workspace: start one with "kino workspace <file.ts>", or open the file with "kino studio <file.ts>"`,
    );
  }
  const response = await fetch(`${descriptor.endpoint}/studio/api/session`, {
    headers: { 'x-kino-token': descriptor.token },
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    throw new StudioInputError(
      'workspace_unreachable',
      `the workspace at ${descriptor.endpoint} does not answer (${(error as Error).message})`,
    );
  });
  if (response.status === 404) {
    throw new StudioInputError(
      'workspace_without_studio',
      'that workspace serves no studio (it started before the studio UI was built): stop it and start it again',
    );
  }
  if (!response.ok) {
    throw new StudioInputError(
      'workspace_refused',
      `the workspace answered ${response.status} ${response.statusText}`,
    );
  }
  return { endpoint: descriptor.endpoint, token: descriptor.token, source: descriptor.source };
}
