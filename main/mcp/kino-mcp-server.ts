// The Kino MCP server: one factory that builds the server with every tool, for both transports
// (stdio through serveStdio, Streamable HTTP through createMcpHandler). The SDK calls the factory per
// connection (stdio) or per request (HTTP), so it holds no state of its own: that is in the host.
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/server';
import { registerCodeTools } from './code-tools.ts';
import { registerDocTools } from './doc-tools.ts';
import { KinoDocs } from './docs.ts';
import type { McpHost } from './host.ts';
import { registerLookTools } from './look-tools.ts';
import { registerRenderTools } from './render-tools.ts';
import { registerTemplateTools } from './template-tools.ts';

const INSTRUCTIONS = `Kino makes videos from a JSON spec (or TypeScript code) and verifies every file it renders.
Loop: write a spec (get_doc "spec"), look at frames with render_frame, check with review_video, fix what
the findings say, then render_video. Read get_doc "mcp/workflow" first.`;

const KINO_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export function kinoMcpServerFactory(host: McpHost): () => McpServer {
  const docs = new KinoDocs(host.service.config.renderProject);
  return () => {
    const server = new McpServer(
      { name: 'kino', title: 'Kino', version: KINO_VERSION },
      { instructions: INSTRUCTIONS },
    );
    registerRenderTools(server, host);
    registerLookTools(server, host);
    registerCodeTools(server, host);
    registerDocTools(server, host, docs);
    registerTemplateTools(server, host);
    return server;
  };
}
